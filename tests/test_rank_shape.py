import pytest

from codesift.rank.shape import QueryShape, classify, identifier_words, looks_like_identifier


@pytest.mark.parametrize(
    "query, shape",
    [
        ("RequestsCookieJar", QueryShape.IDENTIFIER),
        ("rebuild_auth", QueryShape.IDENTIFIER),
        ("Session.send", QueryShape.IDENTIFIER),
        ("parse_args()", QueryShape.IDENTIFIER),
        ("cookie", QueryShape.SINGLE_WORD),
        ("cookiejar_from_dict merge_cookies jar", QueryShape.MOSTLY_IDENTIFIERS),
        ("where are redirects followed", QueryShape.NATURAL_LANGUAGE),
        ("cookie jar dict", QueryShape.OTHER),
        ("", QueryShape.OTHER),
    ],
)
def test_classify(query, shape):
    assert classify(query) == shape


def test_identifier_detection():
    assert looks_like_identifier("getAuthToken")
    assert looks_like_identifier("__init__")
    assert looks_like_identifier("HTTPServer")
    assert not looks_like_identifier("Session")
    assert not looks_like_identifier("redirects")
    assert not looks_like_identifier("a-b")


def test_identifier_words_strip_quotes_and_parens():
    assert identifier_words("who calls `parse_args()` here") == ["parse_args"]
