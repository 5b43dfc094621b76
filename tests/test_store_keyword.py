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
