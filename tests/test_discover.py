"""Behaviour of codesift.indexing.discover on real temporary trees (walk mode and real git repos)."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from codesift.indexing.discover import SOURCE_SIZE_FACTOR, Discovery, SourceFile, discover, is_binary, size_limit

HAS_GIT = shutil.which("git") is not None
needs_git = pytest.mark.skipif(not HAS_GIT, reason="git not on PATH")


def write(root: Path, rel: str, data: str | bytes = "x = 1\n") -> Path:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        p.write_bytes(data)
    else:
        p.write_text(data, encoding="utf-8")
    return p


def paths(d: Discovery) -> list[str]:
    return [f.path for f in d.files]


def git(root: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-c", "user.email=a@b", "-c", "user.name=t", "-c", "commit.gpgsign=false", *args],
        cwd=root, check=True, capture_output=True,
    )


@pytest.fixture
def plain(tmp_path: Path) -> Path:
    """A fresh directory for walk-mode tests (pytest's tmp dirs are outside any git repo)."""
    root = tmp_path / "plain"
    root.mkdir()
    return root


def make_repo(root: Path) -> Path:
    root.mkdir(parents=True, exist_ok=True)
    git(root, "init", "-q")
    return root


# --------------------------------------------------------------------------- basics
def test_is_binary() -> None:
    assert is_binary(b"abc\0def")
    assert not is_binary(b"def f():\n    return 1\n")
    assert not is_binary(b"")
    assert not is_binary("héllo".encode())


def test_missing_root_and_file_root(tmp_path: Path) -> None:
    with pytest.raises(FileNotFoundError, match="no such directory"):
        discover(tmp_path / "nope")
    f = write(tmp_path, "file.py")
    with pytest.raises(NotADirectoryError, match="not a directory"):
        discover(f)


def test_sourcefile_fields_and_sorting(plain: Path) -> None:
    write(plain, "b.py", "b = 2\n")
    write(plain, "a/z.py")
    write(plain, "a/b.py")
    d = discover(plain)
    assert d.mode == "walk"
    assert paths(d) == ["a/b.py", "a/z.py", "b.py"]
    f = d.files[-1]
    assert isinstance(f, SourceFile)
    st = os.stat(plain / "b.py")
    assert (f.abspath, f.size, f.mtime) == (str(plain / "b.py"), 6, st.st_mtime)
    assert d.skipped == {}


def test_spaces_and_non_ascii_names(plain: Path) -> None:
    write(plain, "dir with space/my file.py")
    write(plain, "ünïcødé/日本.py")
    assert paths(discover(plain)) == ["dir with space/my file.py", "ünïcødé/日本.py"]


# --------------------------------------------------------------------------- filters
def test_binary_sniff_and_extension(plain: Path) -> None:
    write(plain, "data.txt", b"abc\0def")
    write(plain, "late_nul.txt", b"a" * 9000 + b"\0")  # NUL beyond the 8 KiB sniff window
    write(plain, "img.PNG", b"not really png but the extension decides")
    write(plain, "ok.py")
    d = discover(plain)
    assert paths(d) == ["late_nul.txt", "ok.py"]
    assert d.skipped == {"data.txt": "binary", "img.PNG": "binary"}


def test_size_limit(plain: Path) -> None:
    write(plain, "big.txt", "x" * 101)
    write(plain, "edge.txt", "x" * 100)
    d = discover(plain, max_file_size=100)
    assert paths(d) == ["edge.txt"]
    assert d.skipped == {"big.txt": "too_large"}


def test_source_in_a_parsed_language_may_be_larger(plain: Path) -> None:
    # A hand-written core file of over a megabyte (picocli's CommandLine.java) is indexed; data that large is not.
    limit = 100 * SOURCE_SIZE_FACTOR
    write(plain, "Core.java", "x" * limit)
    write(plain, "huge.py", "x" * (limit + 1))
    write(plain, "data.json", "x" * 101)
    d = discover(plain, max_file_size=100)
    assert paths(d) == ["Core.java"]
    assert d.skipped == {"huge.py": "too_large", "data.json": "too_large"}
    assert size_limit("a/b.go", 100) == limit and size_limit("notes.md", 100) == 100


def test_lockfiles_minified_generated(plain: Path) -> None:
    for name in ("package-lock.json", "yarn.lock", "poetry.lock", "Cargo.lock", "go.sum", "uv.lock"):
        write(plain, f"sub/{name}", "{}\n")
    write(plain, "app.min.js", "var a=1;")
    write(plain, "app.bundle.js", "var a=1;")
    write(plain, "app.js.map", "{}")
    write(plain, "style.min.css", "a{}")
    write(plain, "api_pb2.py")
    write(plain, "api.pb.go", "package api\n")
    write(plain, "client.generated.ts", "export {}\n")
    write(plain, "app.js", "var a = 1;\n")
    d = discover(plain)
    assert paths(d) == ["app.js"]
    assert d.skipped["sub/yarn.lock"] == "lockfile"
    assert d.skipped["app.min.js"] == d.skipped["app.js.map"] == "minified"
    assert d.skipped["api_pb2.py"] == d.skipped["client.generated.ts"] == "generated"
    assert len(d.skipped) == 13


def test_vendored_dirs_reported_once(plain: Path) -> None:
    for rel in ("node_modules/a/index.js", "node_modules/b/x.js", "pkg/__pycache__/m.py",
                ".venv/lib/x.py", "web/dist/app.js", "third_party/lib.py", "env/e.py"):
        write(plain, rel)
    write(plain, "main.py")
    d = discover(plain)
    assert paths(d) == ["env/e.py", "main.py", "third_party/lib.py"]
    assert d.skipped == {
        ".venv/": "vendored", "node_modules/": "vendored",
        "pkg/__pycache__/": "vendored", "web/dist/": "vendored",
    }


def test_a_published_packages_build_folder_is_its_code(plain: Path) -> None:
    manifest = '{"name": "p", "main": "build/index.cjs", "exports": {".": [{"import": "./build/lib/index.js"}]}}'
    write(plain, "pkg/package.json", manifest)
    write(plain, "pkg/build/index.cjs", "module.exports = 1\n")
    write(plain, "pkg/build/lib/index.js", "export default 1\n")
    write(plain, "pkg/dist/old.js", "x\n")  # not where package.json points
    write(plain, "dev/package.json", '{"main": "dist/index.js"}')
    write(plain, "dev/src/index.js", "export default 1\n")  # sources beside it: dist only repeats them
    write(plain, "dev/dist/index.js", "module.exports = 1\n")
    write(plain, "bad/package.json", "{not json")
    write(plain, "bad/build/x.js", "x\n")
    d = discover(plain)
    assert [p for p in paths(d) if p.endswith(".js") or p.endswith(".cjs")] == [
        "dev/src/index.js", "pkg/build/index.cjs", "pkg/build/lib/index.js"]
    assert d.skipped == {"bad/build/": "vendored", "dev/dist/": "vendored", "pkg/dist/": "vendored"}


def test_target_only_next_to_cargo_or_pom(plain: Path) -> None:
    write(plain, "rs/Cargo.toml", "[package]\n")
    write(plain, "rs/target/debug/gen.rs")
    write(plain, "other/target/keep.py")
    # A Python package called `build` is source, not a build tree.
    write(plain, "src/build/__init__.py")
    d = discover(plain)
    assert paths(d) == ["other/target/keep.py", "rs/Cargo.toml", "src/build/__init__.py"]
    assert d.skipped == {"rs/target/": "vendored"}


def test_index_dir_and_vcs_dirs_skipped_silently(plain: Path) -> None:
    write(plain, ".codesift/meta.json", "{}")
    write(plain, "sub/.codesift/keep.py")  # only the root-level index folder is special
    write(plain, ".hg/store.py")
    write(plain, "a.py")
    d = discover(plain)
    assert paths(d) == ["a.py", "sub/.codesift/keep.py"]
    assert d.skipped == {}
    assert paths(discover(plain, index_dir_name="idx")) == [".codesift/meta.json", "a.py",
                                                           "sub/.codesift/keep.py"]


# --------------------------------------------------------------------------- ignore files (walk)
def test_nested_gitignore_negation_dir_and_anchored(plain: Path) -> None:
    write(plain, ".gitignore", "*.log\n/top_only.py\nout/\n")
    write(plain, "a.log", "l")
    write(plain, "top_only.py")
    write(plain, "sub/top_only.py")  # anchored pattern does not reach here
    write(plain, "out/x.py")
    write(plain, "deep/out/y.py")  # dir/ pattern matches at any depth
    write(plain, "out.py")  # dir/ pattern does not match a file
    write(plain, "sub/.gitignore", "!keep.log\n/local.py\n")
    write(plain, "sub/keep.log", "l")
    write(plain, "sub/drop.log", "l")
    write(plain, "sub/local.py")
    write(plain, "sub/inner/local.py")  # anchored to sub/, so kept
    d = discover(plain)
    assert paths(d) == [".gitignore", "out.py", "sub/.gitignore", "sub/inner/local.py",
                        "sub/keep.log", "sub/top_only.py"]
    assert d.skipped == {}  # ignored files are not reported


def test_negation_cannot_reinclude_inside_ignored_dir(plain: Path) -> None:
    write(plain, ".gitignore", "gen/\n!gen/keep.py\n")
    write(plain, "gen/keep.py")
    assert paths(discover(plain)) == [".gitignore"]


def test_bad_ignore_line_does_not_void_file(plain: Path) -> None:
    write(plain, ".gitignore", "\\\n  #not_a_comment.py\n*.log\n")
    write(plain, "a.log", "l")
    write(plain, "  #not_a_comment.py")
    write(plain, "b.py")
    assert paths(discover(plain)) == [".gitignore", "b.py"]


def test_codesiftignore_and_extra_ignores_walk(plain: Path) -> None:
    write(plain, ".codesiftignore", "docs/\n*.md\n")
    write(plain, "docs/a.py")
    write(plain, "README.md", "# hi\n")
    write(plain, "pkg/.codesiftignore", "!NOTES.md\nfixtures/\n")
    write(plain, "pkg/NOTES.md", "n\n")
    write(plain, "pkg/fixtures/f.py")
    write(plain, "pkg/mod.py")
    write(plain, "scratch/tmp.py")
    d = discover(plain, extra_ignores=["scratch/"])
    assert paths(d) == [".codesiftignore", "pkg/.codesiftignore", "pkg/NOTES.md", "pkg/mod.py"]


def test_extra_ignores_are_root_relative(plain: Path) -> None:
    write(plain, "a/gen.py")
    write(plain, "gen.py")
    assert paths(discover(plain, extra_ignores=["/gen.py"])) == ["a/gen.py"]


# --------------------------------------------------------------------------- special files
def test_symlinks(plain: Path, tmp_path: Path) -> None:
    outside = write(tmp_path, "outside/secret.py")
    write(plain, "real/mod.py")
    os.symlink(outside, plain / "link_out.py")
    os.symlink(outside.parent, plain / "dir_out")
    os.symlink(plain / "real/mod.py", plain / "alias.py")  # inside root: kept
    os.symlink(plain / "real", plain / "real_alias")  # dir inside root: duplicate view
    os.symlink(plain, plain / "real/loop")  # points at an ancestor
    os.symlink(plain / "missing.py", plain / "broken.py")
    os.symlink("self_a", plain / "self_b")
    os.symlink("self_b", plain / "self_a")
    d = discover(plain)
    assert paths(d) == ["alias.py", "real/mod.py"]
    assert d.skipped == {
        "broken.py": "broken_symlink",
        "dir_out": "symlink_outside_root",
        "link_out.py": "symlink_outside_root",
        "real/loop": "symlink_loop",
        "real_alias": "symlink_duplicate",
        "self_a": "symlink_loop",
        "self_b": "symlink_loop",
    }
    alias = d.files[0]
    assert alias.abspath == str(plain / "alias.py") and alias.size == 6


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_fifo_not_regular(plain: Path) -> None:
    os.mkfifo(plain / "pipe")
    write(plain, "a.py")
    d = discover(plain)  # must not block reading the FIFO
    assert paths(d) == ["a.py"] and d.skipped == {"pipe": "not_regular"}


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root reads anything")
def test_unreadable_file_and_dir(plain: Path) -> None:
    f = write(plain, "secret.py")
    locked = write(plain, "locked/x.py").parent
    f.chmod(0)
    locked.chmod(0)
    try:
        d = discover(plain)
    finally:
        f.chmod(0o644)
        locked.chmod(0o755)
    assert paths(d) == []
    assert d.skipped == {"locked/": "unreadable", "secret.py": "unreadable"}


def test_unreadable_file_simulated(plain: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Runs even as root: make the sniff's open fail the way a permission error would.
    write(plain, "secret.py")
    write(plain, "ok.py")
    real_open = os.open

    def fake_open(path, flags, *args, **kwargs):  # type: ignore[no-untyped-def]
        if os.fspath(path).endswith("secret.py"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", fake_open)
    d = discover(plain)
    assert paths(d) == ["ok.py"] and d.skipped == {"secret.py": "unreadable"}


def test_unreadable_dir_simulated(plain: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    write(plain, "locked/x.py")
    write(plain, "ok.py")
    real_scandir = os.scandir

    def fake_scandir(path):  # type: ignore[no-untyped-def]
        if os.fspath(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", fake_scandir)
    d = discover(plain)
    assert paths(d) == ["ok.py"] and d.skipped == {"locked/": "unreadable"}


# --------------------------------------------------------------------------- git mode
@needs_git
def test_git_mode_tracked_untracked_ignored_deleted(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo, ".gitignore", "*.log\nbuild_out/\n")
    write(repo, "tracked.py")
    write(repo, "gone.py")
    write(repo, "sub dir/ü.py")
    write(repo, "forced.log", "tracked even though ignored\n")
    git(repo, "add", ".gitignore", "tracked.py", "gone.py", "sub dir/ü.py")
    git(repo, "add", "-f", "forced.log")
    git(repo, "commit", "-q", "-m", "init")
    write(repo, "untracked.py")
    write(repo, "noise.log", "l")
    write(repo, "build_out/x.py")
    write(repo, ".codesift/index.bin", b"\0")
    (repo / "gone.py").unlink()  # still tracked, no longer on disk
    d = discover(repo)
    assert d.mode == "git"
    assert paths(d) == [".gitignore", "forced.log", "sub dir/ü.py", "tracked.py", "untracked.py"]
    assert d.skipped == {}


@needs_git
def test_git_mode_subdir_root_and_codesiftignore(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo, "top.py")
    write(repo, "pkg/.codesiftignore", "fixtures/\n*.txt\n!keep.txt\n")
    write(repo, "pkg/fixtures/f.py")
    write(repo, "pkg/a.txt", "a")
    write(repo, "pkg/keep.txt", "k")
    write(repo, "pkg/inner/.codesiftignore", "skip_me.py\n")
    write(repo, "pkg/inner/skip_me.py")
    write(repo, "pkg/inner/mod.py")
    write(repo, "pkg/scratch.py")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "init")
    d = discover(repo / "pkg", extra_ignores=["scratch.py"])
    assert d.mode == "git"
    assert paths(d) == [".codesiftignore", "inner/.codesiftignore", "inner/mod.py", "keep.txt"]
    assert d.files[-1].abspath == str(repo / "pkg" / "keep.txt")


@needs_git
def test_git_mode_vendored_lockfile_binary_symlink(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo, "node_modules/a/index.js")
    write(repo, "web/node_modules/b/x.js")
    write(repo, "web/node_modules/b/y.js")
    write(repo, "yarn.lock", "lock\n")
    write(repo, "blob.dat", b"\0\1\2")
    write(repo, "main.py")
    write(tmp_path, "outside.py")
    os.symlink(tmp_path / "outside.py", repo / "out_link.py")
    os.symlink("missing.py", repo / "broken.py")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "init")
    d = discover(repo)
    assert d.mode == "git"
    assert paths(d) == ["main.py"]
    # Vendored trees are reported once per top directory in git mode too.
    assert d.skipped == {
        "blob.dat": "binary", "broken.py": "broken_symlink", "node_modules/": "vendored",
        "out_link.py": "symlink_outside_root", "web/node_modules/": "vendored",
        "yarn.lock": "lockfile",
    }


@needs_git
def test_git_mode_keeps_a_published_packages_build_folder(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo, "package.json", '{"main": "./dist/index.js"}')
    write(repo, "dist/index.js", "module.exports = 1\n")
    write(repo, "web/build/app.js", "x\n")
    git(repo, "add", ".")
    git(repo, "commit", "-q", "-m", "init")
    d = discover(repo)
    assert [p for p in paths(d) if p.endswith(".js")] == ["dist/index.js"]
    assert d.skipped == {"web/build/": "vendored"}


@needs_git
def test_git_mode_nested_repo(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo, "a.py")
    inner = make_repo(repo / "inner")
    write(inner, "b.py")
    git(inner, "add", ".")
    git(inner, "commit", "-q", "-m", "inner")
    d = discover(repo)
    assert paths(d) == ["a.py"] and d.skipped == {"inner/": "nested_repo"}


@needs_git
def test_git_ignored_root_is_walked(tmp_path: Path) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo, ".gitignore", "/venvish/\n")
    write(repo, "venvish/lib/mod.py")
    write(repo, "venvish/lib/.gitignore", "*.tmp\n")
    write(repo, "venvish/lib/x.tmp", "t")
    d = discover(repo / "venvish")
    assert d.mode == "walk"
    assert paths(d) == ["lib/.gitignore", "lib/mod.py"]


@needs_git
def test_git_missing_falls_back_to_walk_with_ancestor_rules(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    repo = make_repo(tmp_path / "repo")
    write(repo, ".gitignore", "*.log\n")
    write(repo, ".git/info/exclude", "local_only.py\n")
    write(repo, "sub/a.py")
    write(repo, "sub/b.log", "l")
    write(repo, "sub/local_only.py")
    from codesift.indexing import gitfiles

    monkeypatch.setattr(gitfiles.shutil, "which", lambda _name: None)
    d = discover(repo / "sub")
    assert d.mode == "walk"
    assert paths(d) == ["a.py"]
    assert paths(discover(repo)) == [".gitignore", "sub/a.py"]  # .git itself is skipped


def test_gettext_catalogs_are_skipped_as_generated(tmp_path):
    (tmp_path / "locale/fr/LC_MESSAGES").mkdir(parents=True)
    (tmp_path / "locale/fr/LC_MESSAGES/django.po").write_text('msgid "Hello"\nmsgstr "Bonjour"\n')
    (tmp_path / "app.py").write_text("x = 1\n")
    found = discover(tmp_path)
    assert [f.path for f in found.files] == ["app.py"]
    assert found.skipped["locale/fr/LC_MESSAGES/django.po"] == "generated"


def test_known_unchanged_files_are_not_sniffed_again(tmp_path):
    data = tmp_path / "data.py"
    data.write_bytes(b"x = 1\n\x00\x00")  # binary by content
    st = data.stat()
    assert "data.py" in discover(tmp_path).skipped
    # Listed as indexed text with this very size and mtime: trusted without reading it.
    found = discover(tmp_path, known={"data.py": (st.st_size, st.st_mtime)})
    assert [f.path for f in found.files] == ["data.py"]
    # Any change to size or mtime and it is read (and judged) again.
    found = discover(tmp_path, known={"data.py": (st.st_size, st.st_mtime - 1)})
    assert found.files == [] and found.skipped["data.py"] == "binary"


def test_typescript_compiler_output_is_skipped_beside_its_sources(plain: Path) -> None:
    write(plain, "src/core/schemas.ts", "export const a = 1;\n")
    write(plain, "core/schemas.js", "exports.a = 1;\n")
    write(plain, "core/schemas.d.ts", "export declare const a = 1;\n")
    write(plain, "lib/core/other.js", "exports.b = 2;\n")  # no TypeScript twin: source
    d = discover(plain)
    assert paths(d) == ["lib/core/other.js", "src/core/schemas.ts"]
    assert d.skipped == {"core/schemas.js": "compiled", "core/schemas.d.ts": "compiled"}
    # an include pattern keeps a compiled file all the same
    assert "core/schemas.js" in paths(discover(plain, include=["core/*.js"]))
