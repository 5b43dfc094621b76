import math

from codesift.rank import boosts


def test_test_paths():
    for p in ("tests/test_api.py", "src/foo_test.go", "web/app.spec.ts", "pkg/__tests__/x.js",
              "conftest.py", "src/test/java/FooTest.java", "spec/models/user_spec.rb"):
        assert boosts.is_test_path(p), p
    for p in ("src/requests/sessions.py", "testing.py", "src/contest.py", "lib/attest/api.py"):
        assert not boosts.is_test_path(p), p


def test_query_wants_tests():
    assert boosts.query_wants_tests("test for redirects")
    assert not boosts.query_wants_tests("attestation of builds")


def test_name_match_levels():
    assert boosts.name_match(["RequestsCookieJar"], "RequestsCookieJar", "RequestsCookieJar") == 1.0
    assert boosts.name_match(["requestscookiejar"], "RequestsCookieJar", "RequestsCookieJar") == 1.0
    assert boosts.name_match(["Session.send"], "send", "Session.send") == 1.0
    assert boosts.name_match(["requests_cookie_jar"], "RequestsCookieJar", "X") == 0.6
    assert boosts.name_match(["RequestsCookieJar"], "get", "RequestsCookieJar.get") == 0.0
    assert boosts.name_match([], "x", "x") == 0.0


def test_phrase_name_match():
    assert boosts.phrase_name_match("cookie jar", "CookieJar") == 1.0
    assert boosts.phrase_name_match("cookie", "CookieJar") == 0.0
    assert boosts.phrase_name_match("jar", "jar") == 0.0


def test_path_overlap():
    assert boosts.path_overlap({"session", "cookie"}, "src/requests/sessions.py") == 0.5
    assert boosts.path_overlap(set(), "a.py") == 0.0


def test_recency_half_life():
    now = 1_000_000_000.0
    assert boosts.recency(now, now) == 1.0
    assert math.isclose(boosts.recency(now - 7 * 86400, now), 0.5, rel_tol=0.01)
    assert boosts.recency(0, now) == 0.0


def test_rerank_factor():
    f, parts = boosts.rerank_factor("function", "python", "src/a.py", "def f():\n" + "x = 1\n" * 100, 0.0)
    assert parts == {"definition": 1.10, "substantial": 1.02} and math.isclose(f, 1.122)
    f, parts = boosts.rerank_factor("window", "markdown", "README.md", "tiny", 0.0, docs_factor=0.8)
    assert parts == {"docs": 0.8, "important_file": 1.05, "tiny": 0.90}
    f, parts = boosts.rerank_factor("window", "yaml", "ci.yml", "x" * 100, 0.0)
    assert parts == {}
