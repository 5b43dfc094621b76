import pytest

from codesift.store.keyword import KeywordDoc, KeywordIndex, glob_to_regex


def _doc(cid, fid, path, name, text, kind="function", lang="python", doc=""):
    return KeywordDoc(cid, fid, path, lang, kind, name, name, f"def {name}()", "", doc, text)


@pytest.fixture
def kw(tmp_path):
    index = KeywordIndex(tmp_path / "kw")
    index.add(_doc(1, 1, "src/auth.py", "getAuthToken", "def getAuthToken(): return token"))
    index.add(_doc(2, 1, "src/auth.py", "Session", "class Session: pass", kind="class"))
    index.add(_doc(3, 2, "tests/test_auth.py", "test_token", "def test_token(): getAuthToken()"))
    index.add(_doc(4, 3, "web/app.js", "fetchToken", "function fetchToken() {}", lang="javascript"))
    index.commit()
    return index


def test_name_match_outranks_body_mention(kw):
    hits = kw.search("getAuthToken", 10)
    assert [h[0] for h in hits][:2] == [1, 3]


def test_filters_apply_inside_the_engine(kw):
    assert [h[0] for h in kw.search("token", 10, path="src/")] == [1]
    assert {h[0] for h in kw.search("token", 10, path="**/test_*.py")} == {3}
    assert [h[0] for h in kw.search("token", 10, languages=["javascript"])] == [4]
    assert [h[0] for h in kw.search("session", 10, kinds=["class"])] == [2]
    assert kw.search("session", 10, kinds=["method"]) == []


def test_delete_file_removes_all_its_chunks(kw, tmp_path):
    kw.delete_file(1)
    kw.commit()
    assert {h[0] for h in kw.search("token session", 10)} == {3, 4}
    assert KeywordIndex(tmp_path / "kw").num_docs() == 2


def test_queries_without_terms_return_nothing(kw):
    assert kw.search("", 10) == []
    assert kw.search("*** (( \" AND OR", 10) == []


def test_glob_to_regex():
    import re

    assert re.fullmatch(glob_to_regex("src/"), "src/a/b.py")
    assert not re.fullmatch(glob_to_regex("src/"), "lib/src/a.py")
    assert re.fullmatch(glob_to_regex("**/*.py"), "a.py")
    assert re.fullmatch(glob_to_regex("**/*.py"), "a/b/c.py")
    assert not re.fullmatch(glob_to_regex("*.py"), "a/b.py")


# -- NEAR, prefix and expansion terms ------------------------------------------------------------------
@pytest.fixture
def prose(tmp_path):
    index = KeywordIndex(tmp_path / "prose")
    filler = " ".join(f"w{i}" for i in range(8))
    index.add(_doc(1, 1, "a.py", "one", f"header {filler} parse"))  # both words, far apart
    index.add(_doc(2, 1, "b.py", "two", f"parse header {filler}"))  # both words, side by side
    index.add(_doc(3, 2, "c.py", "parser", "class Parser: build the parser"))
    index.add(_doc(4, 3, "d.py", "jar", "cookie jar storage"))
    index.add(_doc(5, 3, "e.py", "getAuthToken", "def getAuthToken(): return 1"))
    index.commit()
    return index


def test_near_prefers_query_words_side_by_side(prose):
    assert [h[0] for h in prose.search("parse header", 10)][:2] == [1, 2]  # a tie, broken by id
    assert [h[0] for h in prose.search("parse header", 10, near=True)][:2] == [2, 1]
    assert [h[0] for h in prose.search("header parse", 10, near=True)][:2] == [2, 1]  # either order
    # NEAR only adds score: the same documents match.
    near = {h[0] for h in prose.search("parse header", 10, near=True)}
    assert near == {h[0] for h in prose.search("parse header", 10)}


def test_near_units():
    from codesift.store.keyword import near_units

    assert near_units("where are redirects followed") == ["redirect", "follow"]
    assert near_units("getAuthToken of the Session session") == ["getauthtoken", "session"]


def test_prefix_completes_the_last_word(prose):
    assert prose.search("pars", 10) == []
    assert {h[0] for h in prose.search("pars", 10, prefix=True)} == {1, 2, 3}
    assert [h[0] for h in prose.search("getAuthTo", 10, prefix=True)] == [5]
    # Only the last word is a prefix; completions count less than the exact term.
    assert prose.search("pars header", 10, prefix=True)[0][0] in (1, 2)
    assert [h[0] for h in prose.search("build pars", 10, prefix=True)][0] == 3


def test_prefix_words():
    from codesift.store.keyword import prefix_words

    assert prefix_words("how to pars") == [("par", "pars")]  # the typed word, not its stem
    assert prefix_words("getAuthTo") == [("getauthto", "getauthto")]
    assert prefix_words("get_auth_tok") == [("getauthtok", "getauthtok"), ("tok", "tok")]
    assert prefix_words("foo(") == [] and prefix_words("an") == [] and prefix_words("for the") == []


def test_expansion_terms_widen_at_their_weight(prose):
    assert [h[0] for h in prose.search("biscuit", 10)] == []
    assert [h[0] for h in prose.search("biscuit", 10, expansion=[("cookie jar", 0.5)])] == [4]
    hits = prose.search("parser", 10, expansion=[("cookie", 0.2)])
    assert hits[0][0] == 3 and 4 in {h[0] for h in hits}
    assert prose.search("parser", 10, expansion=[("cookie", 0.0)]) == prose.search("parser", 10)


def test_lift_terms_score_only_what_the_query_matched(prose):
    assert [h[0] for h in prose.search("parser jar", 10)] == [3, 4]
    assert [h[0] for h in prose.search("parser jar", 10, lift=[("cookie", 0.5)])] == [4, 3]
    assert prose.search("biscuit", 10, lift=[("cookie jar", 0.5)]) == []  # never a match of their own
    assert prose.search("parser", 10, lift=[("cookie", 0.5)]) == prose.search("parser", 10)
    assert prose.search("parser jar", 10, lift=[("cookie", 0.0)]) == prose.search("parser jar", 10)


def test_index_without_positions_is_recreated(tmp_path):
    import tantivy

    from codesift.store.keyword import TEXT_FIELDS

    sb = tantivy.SchemaBuilder()  # the schema before the positional fields
    sb.add_unsigned_field("id", stored=True, indexed=True, fast=True)
    sb.add_unsigned_field("file_id", indexed=True)
    for name in ("path", "lang", "kind"):
        sb.add_text_field(name, tokenizer_name="raw")
    for name in TEXT_FIELDS:
        sb.add_text_field(name, tokenizer_name="whitespace", index_option="freq")
    (tmp_path / "old").mkdir()
    tantivy.Index(sb.build(), path=str(tmp_path / "old"), reuse=True)
    index = KeywordIndex(tmp_path / "old")
    assert index.recreated and index.num_docs() == 0
    assert not KeywordIndex(tmp_path / "old").recreated


@pytest.mark.parametrize("query", ["", "   ", "((( ", "a b", "pars\x00", "ünïcödé wörds parse", "__init__",
                                   "x" * 500, " ".join(["parse header"] * 400), "get_auth_tok.", "123 456",
                                   "regex.*chars[", "getAuthTo"])
def test_every_option_takes_any_query(prose, query):
    for hits in (prose.search(query, 10, near=True, prefix=True, expansion=[(query, 0.3), ("jar", 0.2)],
                              lift=[(query, 0.1), ("cookie", 0.2)]),
                 prose.search(query, 10, and_first=False, near=True, near_weight=0.0, prefix=True)):
        assert all(isinstance(cid, int) for cid, _ in hits)
