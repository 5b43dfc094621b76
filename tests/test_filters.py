"""Filter values as people and agents type them (``codesift.search.filters``), through the API, the CLI and MCP."""

import pytest

from codesift import Index
from codesift.search.filters import FilterError, absent_path_notes, normalise_kinds, normalise_languages, normalise_path
from codesift.limits import InputError
from test_cli import run


def test_language_names_are_case_insensitive_and_aliases_map_to_internal_names():
    assert normalise_languages("Go") == ("go",)
    assert normalise_languages("golang,GO, go") == ("go",)  # one filter value, not three
    assert normalise_languages(["C++", "c#", "TS", "py", "rs", "js"]) == (
        "cpp", "c_sharp", "typescript", "python", "rust", "javascript")
    assert normalise_languages(".rb") == ("ruby",)  # an extension names its language
    assert normalise_languages("hpp") == ("cpp",)
    assert normalise_languages("Objective-C") == ("objective_c",)
    assert normalise_languages(None) == () and normalise_languages(" , ") == ()


def test_unknown_language_is_an_input_error_naming_what_exists():
    with pytest.raises(FilterError) as err:
        normalise_languages("cobol", lambda: ["python", "go"])
    assert isinstance(err.value, InputError) and isinstance(err.value, ValueError)
    assert "'cobol'" in str(err.value) and "go, python" in str(err.value) and "\n" not in str(err.value)
    # a language only the index knows (a future parser) is still accepted
    assert normalise_languages("zig2", lambda: ["zig2"]) == ("zig2",)


def test_kind_aliases_and_plurals_map_to_kinds_that_exist():
    assert normalise_kinds("func,fn,def,Function") == ("function",)
    assert normalise_kinds(["Methods", "meth", "cls", "classes", "Structs", "iface"]) == (
        "method", "class", "struct", "interface")
    assert normalise_kinds("typedef") == ("type",)
    with pytest.raises(FilterError, match=r"unknown kind 'widget'.*function.*method"):
        normalise_kinds("widget")


def test_absolute_paths_under_the_root_become_relative_prefixes(tmp_path):
    root = tmp_path / "r"
    (root / "src" / "pkg").mkdir(parents=True)
    (root / "src" / "pkg" / "a.py").write_text("x = 1\n")
    assert normalise_path(str(root / "src"), root) == "src/"  # a folder: src2/ must not match
    assert normalise_path(str(root / "src" / "pkg" / "a.py"), root) == "src/pkg/a.py"
    assert normalise_path(str(root / "src") + "/**/*.py", root) == "src/**/*.py"
    assert normalise_path(str(root), root) is None  # the whole root: no restriction
    assert normalise_path(str(root / "src" / ".." / "src" / "pkg"), root) == "src/pkg/"
    assert normalise_path("src/", root) == "src/" and normalise_path("**/*.py", root) == "**/*.py"
    assert normalise_path("", root) is None and normalise_path(None, root) is None
    with pytest.raises(FilterError, match="outside the indexed root"):
        normalise_path(str(tmp_path), root)
    # ``/src/`` always meant the root's src/: kept when the root has one, and ``/`` is the whole root
    assert normalise_path("/src/", root) == "/src/" and normalise_path("/", root) == "/"
    with pytest.raises(FilterError, match="outside the indexed root"):
        normalise_path("/no-such-folder-here/", root)


def test_relative_paths_climbing_out_of_the_root_are_refused(tmp_path):
    root = tmp_path / "r"
    (root / "src").mkdir(parents=True)
    for path in ("../outside", "..", "../", "src/../../x", "../**/*.py"):
        with pytest.raises(FilterError, match="outside the indexed root"):
            normalise_path(path, root)
    assert normalise_path("src/../src/", root) == "src/"  # climbs back in: the folder it names
    assert normalise_path("src/..", root) is None  # the root itself: no restriction
    assert normalise_path("./src/", root) == "./src/"  # no "..": as given, as before


@pytest.fixture
def keyword_index(repo):
    with Index(repo) as idx:
        idx.update(embed=False)
        yield idx


def test_api_search_accepts_what_people_type(keyword_index, repo):
    idx = keyword_index

    def hits(**filters):
        return [(r.path, r.start_line) for r in idx.search("redirect", mode="keyword", **filters).results]

    canonical = hits(language="python", kind="method", path="src/")
    assert canonical
    assert hits(language="Python", kind="Methods", path=str(repo / "src")) == canonical
    assert hits(language="py", kind="meth", path=str(repo / "src") + "/") == canonical
    assert hits(kind="func,def") == hits(kind="function")
    with pytest.raises(FilterError, match="this index has: .*python"):
        idx.search("redirect", mode="keyword", language="cobol")
    with pytest.raises(FilterError, match="outside the indexed root"):
        idx.search("redirect", mode="keyword", path=str(repo.parent))
    empty = idx.search("redirect", mode="keyword", language="golang")
    assert empty.results == [] and any("no go files are indexed" in n for n in empty.notes)
    assert [s["kind"] for s in idx.find_symbol("rebuild_auth", kind="meth")] == ["method"]


def test_a_path_no_indexed_file_matches_is_explained_not_answered_silently(keyword_index):
    idx = keyword_index
    for path in ("scr/", "src/*.go", "nowhere"):
        response = idx.search("redirect", mode="keyword", path=path)
        assert response.results == []
        assert [n for n in response.notes if n.startswith(f"no indexed file matches path {path!r}")], path
        assert "top-level folders: " in response.notes[0] and "src/" in response.notes[0]
        assert any("no indexed file matches" in n for n in idx.grep("def", path=path)["notes"])
    assert any("no go files are indexed" in n for n in idx.grep("def", language="golang")["notes"])
    for path in ("src/", "src/**/*.py", "src/http"):
        assert not any("no indexed file matches" in n for n in idx.search("redirect", mode="keyword", path=path).notes)
        assert not any("no indexed file matches" in n for n in idx.grep("def", path=path)["notes"])


def test_absent_path_notes_only_for_a_path_nothing_matches():
    assert absent_path_notes(None, lambda p: False) == []
    assert absent_path_notes("src/", lambda p: True) == []
    note, = absent_path_notes("scr/", lambda p: False, lambda: [".", "src", "docs"])
    assert note.startswith("no indexed file matches path 'scr/'; top-level folders: src/, docs/ (")


def test_cli_one_line_and_exit_2_for_a_filter_that_cannot_match(repo, monkeypatch):
    monkeypatch.setenv("CODESIFT_EMBEDDER", "none")  # filter checks only: no vectors needed
    assert run("index", str(repo), "-q", "--no-embed").exit_code == 0
    ok = run("search", "redirect", "--json", "--mode", "keyword", "--lang", "PY", "--kind", "func",
             "--path", str(repo / "src"), "--root", str(repo), "--no-update")
    assert ok.exit_code == 0, ok.output
    bad = run("search", "redirect", "--lang", "golang2", "--root", str(repo), "--no-update")
    assert bad.exit_code == 2 and "unknown language 'golang2'" in bad.output
    assert len(bad.output.strip().splitlines()) == 1
    outside = run("search", "redirect", "--path", str(repo.parent), "--root", str(repo), "--no-update")
    assert outside.exit_code == 2 and "outside the indexed root" in outside.output
    # a relative path climbing out is refused the same way (it answered "no results")
    climbed = run("search", "redirect", "--path", "../outside", "--root", str(repo), "--no-update")
    assert climbed.exit_code == 2 and "outside the indexed root" in climbed.output, climbed.output
    assert len(climbed.output.strip().splitlines()) == 1
