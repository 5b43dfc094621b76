"""Hostile input, end to end: a generated tree full of junk is indexed without a crash or a hang, every
file left out is counted with its reason (``UpdateStats``, ``Index.status()``, ``codesift index --json``),
and odd but valid files stay searchable.

Every case is ``(name, expected, observe)``: the tests assert ``observe(ctx) == expected``, and
``bench/reliability/reliability.py`` prints the same cases as a ``| case | expected | observed |`` table. Keyword-only
(``embedder="none"``): embeddings are not the point here.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from unittest import mock

import pytest

from codesift import Index
from codesift.indexing import indexer, prepare
from codesift.config.settings import Config
from codesift.indexing.indexer import QUARANTINE_AFTER, UpdateStats

BIG_FILE = 50 * 1024 * 1024  # sparse: no disk, no read
DEPTH = 5000
KEYWORD_ONLY = Config(embedder="none")
HAS_FIFO = hasattr(os, "mkfifo")
IS_ROOT = hasattr(os, "geteuid") and os.geteuid() == 0

# --------------------------------------------------------------------------- the corpus
# language -> (extension, a valid definition, source: that definition, a syntax error, then a statement
# naming MARK). The marker must stay searchable however the broken file was chunked.
SYNTAX_ERRORS: dict[str, tuple[str, str, str]] = {
    "python": ("py", "ok_python_fn",
               "def ok_python_fn(a):\n    return a\n\ndef broken(:\n    class }{ ((( ]]\nMARK = 1\n"),
    "javascript": ("js", "okJavascriptFn",
                   "function okJavascriptFn(a) { return a; }\nfunction broken( { ))) ]]\nlet MARK = 1;\n"),
    "typescript": ("ts", "okTypescriptFn", "function okTypescriptFn(a: number): number { return a; }\n"
                   "interface Broken { x: ; <<< \nlet MARK: number = 1;\n"),
    "tsx": ("tsx", "OkTsxFn",
            "function OkTsxFn() { return <div>hi</div>; }\nconst Broken = () => <div><span></div>;\nconst MARK = 1;\n"),
    "go": ("go", "OkGoFn",
           "package main\n\nfunc OkGoFn(a int) int { return a }\n\nfunc broken( { ))) \nvar MARK = 1\n"),
    "java": ("java", "okJavaFn",
             "class OkJava { int okJavaFn() { return 1; } }\nclass Broken { void m( { }\nint MARK = 1;\n"),
    "rust": ("rs", "ok_rust_fn", "fn ok_rust_fn(a: i32) -> i32 { a }\nfn broken( { ))) \nstatic MARK: i32 = 1;\n"),
    "c": ("c", "ok_c_fn", "int ok_c_fn(int a) { return a; }\nint broken( { ))) \nint MARK = 1;\n"),
    "cpp": ("cpp", "ok_cpp_fn", "int ok_cpp_fn(int a) { return a; }\nclass Broken { void m( { };\nint MARK = 1;\n"),
    "c_sharp": ("cs", "OkCsharpFn",
                "class OkCs { int OkCsharpFn() { return 1; } }\nclass Broken { void M( { }\nint MARK = 1;\n"),
    "ruby": ("rb", "ok_ruby_fn", "def ok_ruby_fn(a)\n  a\nend\n\ndef broken(\n  ))) end end\nMARK = 1\n"),
    "php": ("php", "ok_php_fn", "<?php\nfunction ok_php_fn($a) { return $a; }\nfunction broken( { ))) \n$MARK = 1;\n"),
    "kotlin": ("kt", "okKotlinFn", "fun okKotlinFn(a: Int): Int { return a }\nfun broken( { ))) \nval MARK = 1\n"),
}


def marker(language: str) -> str:
    """The word written after the syntax error."""
    return f"zzq{language.replace('_', '')}tail"


def _deep_python_parens() -> str:
    return ("def deep_parens_fn():\n    return (\n" + "(\n" * DEPTH + "1\n" + ")\n" * DEPTH + ")\n\n"
            "def after_deep_parens():\n    pass\n")


def _deep_python_ifs() -> str:
    # One-space indents keep 1000 levels under the 1 MiB limit (Python itself stops at 100).
    body = "".join(" " * (i + 1) + "if x:\n" for i in range(1000))
    return "def deep_ifs_fn(x):\n" + body + " " * 1001 + "pass\n\ndef after_deep_ifs():\n    pass\n"


def _deep_js() -> str:
    return ("function deepParensFn() {\n  return " + "(\n" * DEPTH + "1" + ")\n" * DEPTH + ";\n}\n"
            "function deepIfsFn(x) {\n" + "if (x) {\n" * DEPTH + "}\n" * DEPTH + "}\n"
            "function afterDeepJs() {}\n")


def text_files() -> dict[str, bytes]:
    """Every regular file of the corpus (relative path -> bytes)."""
    files: dict[str, bytes] = {
        "ok.py": b"def plain_ok_fn():\n    return 1\n",
        "nul.py": b"def nul_fn():\n    return 1\x00\x00\x00\n",
        "late_nul.js": b"// padding\n" * 900 + b"function lateNulFn() { return '\x00'; }\n// lateNulTail\n",
        "bad_utf8.py": b"def bad_utf8_fn():\n    return '\xff\xfe\xc3\x28'\n" + b"\xff\x80" * 300,
        "utf16_le.py": "def utf16_le_fn():\n    return 'h\u00e9'\n".encode("utf-16"),  # BOM + LE on this host
        "utf16_be.py": b"\xfe\xff" + "def utf16_be_fn():\n    return 1\n".encode("utf-16-be"),
        "empty.py": b"",
        "blank.py": b"\n\n   \n\t\n",
        "long_line.py": (b"LONG = '" + b"a" * 100_000 + b"'\ndef after_long_line():\n    return LONG\n"),
        "deep_parens_line.py": b"def deep_line_fn():\n    return " + b"(" * DEPTH + b"1" + b")" * DEPTH + b"\n",
        "deep_parens.py": _deep_python_parens().encode(),
        "deep_ifs.py": _deep_python_ifs().encode(),
        "deep.js": _deep_js().encode(),
        "with space.py": b"def spaced_name_fn():\n    pass\n",
        "new\nline.py": b"def newline_name_fn():\n    pass\n",
        "\u00fcn\u00efc\u00f6d\u00e9_\u540d\u524d.py": b"def unicode_name_fn():\n    pass\n",
        "glob[x]*?.py": b"def glob_name_fn():\n    pass\n",
        "/".join(f"d{i}" for i in range(100)) + "/deep_dir.py": b"def deep_dir_fn():\n    pass\n",
    }
    for language, (ext, _, source) in SYNTAX_ERRORS.items():
        files[f"syntax/broken_{language}.{ext}"] = source.replace("MARK", marker(language)).encode()
    return files


def build_corpus(root: Path) -> Path:
    """Write the hostile corpus under ``root`` (and a sibling ``outside`` folder for escaping links)."""
    root.mkdir(parents=True, exist_ok=True)
    for rel, data in text_files().items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    with open(root / "huge.py", "wb") as fh:
        fh.truncate(BIG_FILE)
    outside = root.parent / f"{root.name}-outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.py").write_text("def outside_secret_fn():\n    pass\n")
    os.symlink("loop_b.py", root / "loop_a.py")
    os.symlink("loop_a.py", root / "loop_b.py")
    os.symlink(".", root / "self_dir")
    os.symlink(outside / "secret.py", root / "outside_file.py")
    os.symlink(outside, root / "outside_dir")
    os.symlink("missing_target.py", root / "broken_link.py")
    os.symlink("ok.py", root / "inside_link.py")
    if HAS_FIFO:
        os.mkfifo(root / "fifo.py")
    try:
        (root / os.fsdecode(b"bad_name_\xff.py")).write_text("def bad_name_fn():\n    pass\n")
    except (OSError, UnicodeEncodeError):  # a filesystem that insists on UTF-8 names
        pass
    return root


# --------------------------------------------------------------------------- observing
@dataclass
class Ctx:
    """One index of the corpus and what its first update said."""

    root: Path
    index: Index
    stats: UpdateStats
    status: dict
    seconds: float
    files: dict[str, tuple[str | None, int]] = field(default_factory=dict)  # path -> (warning, chunks)


def index_corpus(root: Path) -> Ctx:
    idx = Index(root, config=KEYWORD_ONLY)
    t0 = time.perf_counter()
    stats = idx.update()
    seconds = time.perf_counter() - t0
    rows = idx.store.db.execute(
        "SELECT f.path, f.warning, count(c.id) FROM files f LEFT JOIN chunks c ON c.file_id = f.id GROUP BY f.id"
    ).fetchall()
    return Ctx(root, idx, stats, idx.status(), seconds, {r[0]: (r[1], r[2]) for r in rows})


def where(ctx: Ctx, rel: str) -> str:
    if rel in ctx.status["skipped_files"]:
        return f"skipped: {ctx.status['skipped_files'][rel]}"
    return "indexed" if rel in ctx.files else "absent"


def _render(state: str, warning: str | None, chunks: int | None, symbols: list[str], missing_symbols: list[str],
            words: list[str], missing_words: list[str]) -> str:
    parts = [state]
    if warning is not None:
        parts.append(f"warning {warning}")
    if chunks is not None:
        parts.append(f"{chunks} chunks")
    if symbols:
        parts.append("symbols " + ", ".join(symbols))
    if missing_symbols:
        parts.append("NO symbols " + ", ".join(missing_symbols))
    if words:
        parts.append("finds " + ", ".join(words))
    if missing_words:
        parts.append("MISSES " + ", ".join(missing_words))
    return "; ".join(parts)


def has_symbol(ctx: Ctx, rel: str, name: str) -> bool:
    return any(s["path"] == rel for s in ctx.index.find_symbol(name, exact=True))


def finds(ctx: Ctx, rel: str, word: str) -> bool:
    return any(r.path == rel for r in ctx.index.search(word, mode="keyword", limit=5).results)


@dataclass(frozen=True)
class Case:
    name: str
    expected: str
    observe: Callable[[Ctx], str]


def indexed(name: str, rel: str, *, symbols: tuple[str, ...] = (), words: tuple[str, ...] = (),
            warning: str | None = "none", chunks: int | None = None) -> Case:
    """A file that must be indexed (with ``warning``), define ``symbols`` and be found by ``words``."""

    def observe(ctx: Ctx) -> str:
        state = where(ctx, rel)
        if state != "indexed":
            return state
        got_warning, got_chunks = ctx.files[rel]
        return _render(
            state, None if warning is None else (got_warning or "none").split(":")[0],
            None if chunks is None else got_chunks,
            [s for s in symbols if has_symbol(ctx, rel, s)], [s for s in symbols if not has_symbol(ctx, rel, s)],
            [w for w in words if finds(ctx, rel, w)], [w for w in words if not finds(ctx, rel, w)],
        )

    return Case(name, _render("indexed", warning, chunks, list(symbols), [], list(words), []), observe)


def skipped(name: str, rel: str, reason: str) -> Case:
    return Case(name, f"skipped: {reason}", lambda ctx: where(ctx, rel))


def corpus_cases() -> list[Case]:
    cases = [
        indexed("plain file", "ok.py", symbols=("plain_ok_fn",)),
        skipped("binary .py (NUL bytes in the first 8 KiB)", "nul.py", "binary"),
        indexed(".js with a NUL byte after the 8 KiB sniff", "late_nul.js", symbols=("lateNulFn",),
                words=("lateNulTail",)),
        indexed("invalid UTF-8 .py", "bad_utf8.py", symbols=("bad_utf8_fn",), warning="invalid_utf8"),
        indexed("UTF-16 LE with BOM .py", "utf16_le.py", symbols=("utf16_le_fn",), words=("utf16_le_fn",)),
        indexed("UTF-16 BE with BOM .py", "utf16_be.py", symbols=("utf16_be_fn",)),
        indexed("0-byte .py", "empty.py", chunks=0),
        indexed("whitespace-only .py", "blank.py", chunks=0),
        skipped("50 MB sparse .py", "huge.py", "too_large"),
        indexed("100k-character line, code after it", "long_line.py", words=("after_long_line",)),
        indexed("5000 nested parentheses on one line (.py)", "deep_parens_line.py", words=("deep_line_fn",)),
        indexed("5000 nested parentheses over 10k lines (.py)", "deep_parens.py",
                symbols=("deep_parens_fn", "after_deep_parens")),
        indexed("1000 nested ifs (.py)", "deep_ifs.py", symbols=("after_deep_ifs",), words=("deep_ifs_fn",)),
        indexed("5000 nested parentheses and ifs (.js)", "deep.js",
                symbols=("deepParensFn", "deepIfsFn", "afterDeepJs")),
        indexed("file name with spaces", "with space.py", symbols=("spaced_name_fn",)),
        indexed("file name with a newline", "new\nline.py", symbols=("newline_name_fn",)),
        indexed("non-ASCII file name", "\u00fcn\u00efc\u00f6d\u00e9_\u540d\u524d.py", symbols=("unicode_name_fn",)),
        indexed("file name with glob characters", "glob[x]*?.py", symbols=("glob_name_fn",)),
        indexed("100 nested directories", "/".join(f"d{i}" for i in range(100)) + "/deep_dir.py",
                symbols=("deep_dir_fn",)),
        skipped("symlink loop (a -> b -> a)", "loop_a.py", "symlink_loop"),
        skipped("symlink to its own directory", "self_dir", "symlink_loop"),
        skipped("symlink to a file outside root", "outside_file.py", "symlink_outside_root"),
        skipped("symlink to a directory outside root", "outside_dir", "symlink_outside_root"),
        skipped("broken symlink", "broken_link.py", "broken_symlink"),
        indexed("symlink to a file inside root", "inside_link.py", symbols=("plain_ok_fn",)),
    ]
    if HAS_FIFO:
        cases.append(skipped("FIFO named .py", "fifo.py", "not_regular"))
    cases.append(Case(
        "file name with invalid UTF-8 bytes", "skipped: undecodable_name",
        lambda ctx: where(ctx, "bad_name_\\udcff.py") if (ctx.root / os.fsdecode(b"bad_name_\xff.py")).exists()
        else "skipped: undecodable_name",  # the filesystem refused the name: nothing to test
    ))
    for language, (ext, symbol, _) in SYNTAX_ERRORS.items():
        cases.append(indexed(f"syntax error ({language})", f"syntax/broken_{language}.{ext}",
                             symbols=(symbol,), words=(marker(language),)))
    return cases


CASES = corpus_cases()


@pytest.fixture(scope="module")
def ctx(tmp_path_factory: pytest.TempPathFactory):
    root = build_corpus(tmp_path_factory.mktemp("hostile") / "corpus")
    context = index_corpus(root)
    yield context
    context.index.close()


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_corpus_case(ctx: Ctx, case: Case) -> None:
    assert case.observe(ctx) == case.expected


def test_every_skip_is_counted_with_its_reason(ctx: Ctx) -> None:
    per_file = Counter(ctx.status["skipped_files"].values())
    assert ctx.status["skipped"] == dict(per_file) == ctx.stats.skipped
    assert ctx.stats.files_seen == ctx.status["files"] == len(ctx.files)
    assert not ctx.stats.interrupted and ctx.status["quarantined"] == {}
    # nothing is silently lost: every candidate is indexed or listed as skipped
    for rel in text_files():
        assert rel in ctx.files or rel in ctx.status["skipped_files"], rel


def test_corpus_is_indexed_quickly_and_again_is_a_no_op(ctx: Ctx) -> None:
    assert ctx.seconds < 30, f"first update took {ctx.seconds:.1f}s"
    stats = ctx.index.update()
    assert (stats.files_parsed, stats.files_deleted, stats.chunks_added) == (0, 0, 0)
    assert stats.skipped == ctx.stats.skipped


def test_sparse_50mb_file_is_skipped_without_reading_it(tmp_path: Path) -> None:
    root = tmp_path / "big"
    root.mkdir()
    with open(root / "huge.py", "wb") as fh:
        fh.truncate(BIG_FILE)
    (root / "small.py").write_text("def small_fn():\n    pass\n")
    reads: list[str] = []
    real = prepare.read_source
    with mock.patch.object(prepare, "read_source", lambda p: reads.append(p) or real(p)), \
            Index(root, config=KEYWORD_ONLY) as idx:
        t0 = time.perf_counter()
        stats = idx.update()
        assert time.perf_counter() - t0 < 5
    assert stats.skipped == {"too_large": 1} and [os.path.basename(p) for p in reads] == ["small.py"]


def test_git_mode_sees_the_same_corpus(ctx: Ctx, tmp_path: Path) -> None:
    """Inside a git work tree the candidates come from `git ls-files`: same files, same skip reasons."""
    if shutil.which("git") is None:
        pytest.skip("git not on PATH")
    from codesift.indexing.discover import discover

    root = build_corpus(tmp_path / "repo")
    subprocess.run(["git", "init", "-q"], cwd=root, check=True, capture_output=True)
    found = discover(root)
    assert found.mode == "git"
    walk = discover(ctx.root)
    assert [f.path for f in found.files] == [f.path for f in walk.files]
    # git does not list FIFOs (not files it can track); every other skip is the same
    assert found.skipped == {k: v for k, v in walk.skipped.items() if v != "not_regular"}


# --------------------------------------------------------------------------- files that fail later
def _small_tree(root: Path, *names: str) -> Path:
    root.mkdir(parents=True)
    for name in ("a.py", "b.py", *names):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(f"def {Path(name).stem}_fn():\n    pass\n")
    return root


def _summary(idx: Index, stats: UpdateStats, rel: str) -> str:
    status = idx.status()
    others = all(idx.find_symbol(f"{n}_fn", exact=True) for n in ("a", "b"))
    return (f"skipped: {status['skipped_files'].get(rel, 'no')}; stats {dict(stats.skipped)}; "
            f"other files {'indexed' if others else 'MISSING'}")


def scenario_unreadable_at_discovery(tmp: Path) -> tuple[str, str, str]:
    root = _small_tree(tmp / "sniff", "secret.py")
    real_open = os.open

    def fake_open(path, flags, *args, **kwargs):
        if os.fspath(path).endswith("secret.py"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_open(path, flags, *args, **kwargs)

    with mock.patch("os.open", fake_open), Index(root, config=KEYWORD_ONLY) as idx:
        observed = _summary(idx, idx.update(), "secret.py")
    return ("file unreadable at discovery (PermissionError)",
            "skipped: unreadable; stats {'unreadable': 1}; other files indexed", observed)


def scenario_unreadable_directory(tmp: Path) -> tuple[str, str, str]:
    root = _small_tree(tmp / "dir", "locked/inner.py")
    real_scandir = os.scandir

    def fake_scandir(path=".", *args, **kwargs):
        if os.fspath(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_scandir(path, *args, **kwargs)

    with mock.patch("os.scandir", fake_scandir), Index(root, config=KEYWORD_ONLY) as idx:
        observed = _summary(idx, idx.update(), "locked/")
    return ("directory unreadable (PermissionError)",
            "skipped: unreadable; stats {'unreadable': 1}; other files indexed", observed)


def scenario_unreadable_when_read(tmp: Path) -> tuple[str, str, str]:
    root = _small_tree(tmp / "read", "secret.py")
    real = prepare.read_source

    def fake(path: str) -> bytes:
        if path.endswith("secret.py"):
            raise PermissionError(13, "Permission denied", path)
        return real(path)

    with mock.patch.object(prepare, "read_source", fake), Index(root, config=KEYWORD_ONLY) as idx:
        observed = _summary(idx, idx.update(), "secret.py")
        for _ in range(QUARANTINE_AFTER - 1):
            idx.update()
        last = idx.update()
        observed += f"; then {dict(last.skipped)}, quarantined {sorted(idx.status()['quarantined'])}"
    return ("file unreadable after discovery (PermissionError on read)",
            "skipped: unreadable; stats {'unreadable': 1}; other files indexed; "
            "then {'quarantined': 1}, quarantined ['secret.py']", observed)


def scenario_swapped_for_fifo(tmp: Path) -> tuple[str, str, str]:
    root = _small_tree(tmp / "fifo", "swapped.py")
    real_discover = indexer.discover

    def discover_then_swap(*args, **kwargs):
        found = real_discover(*args, **kwargs)
        (root / "swapped.py").unlink()
        os.mkfifo(root / "swapped.py")
        return found

    result: dict[str, str] = {}

    def run() -> None:
        with Index(root, config=KEYWORD_ONLY) as idx:
            result["observed"] = _summary(idx, idx.update(), "swapped.py")

    with mock.patch.object(indexer, "discover", discover_then_swap):
        worker = threading.Thread(target=run, daemon=True)
        worker.start()
        worker.join(20)
    if worker.is_alive():  # hung on open(): release it by opening the writing end, then report
        fd = os.open(root / "swapped.py", os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        worker.join(5)
        result["observed"] = "HUNG opening the FIFO"
    return ("file swapped for a FIFO between discovery and read",
            "skipped: unreadable; stats {'unreadable': 1}; other files indexed", result.get("observed", "crashed"))


SCENARIOS: list[Callable[[Path], tuple[str, str, str]]] = [
    scenario_unreadable_at_discovery, scenario_unreadable_directory, scenario_unreadable_when_read,
]
if HAS_FIFO:
    SCENARIOS.append(scenario_swapped_for_fifo)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.__name__ for s in SCENARIOS])
def test_failure_scenario(scenario: Callable[[Path], tuple[str, str, str]], tmp_path: Path) -> None:
    _, expected, observed = scenario(tmp_path)
    assert observed == expected


@pytest.mark.skipif(IS_ROOT or not hasattr(os, "geteuid"), reason="root reads anything")
def test_real_permissions(tmp_path: Path) -> None:
    root = _small_tree(tmp_path / "perm", "secret.py", "locked/inner.py")
    os.chmod(root / "secret.py", 0)
    os.chmod(root / "locked", 0)
    try:
        with Index(root, config=KEYWORD_ONLY) as idx:
            stats = idx.update()
            status = idx.status()
            assert status["skipped_files"] == {"secret.py": "unreadable", "locked/": "unreadable"}
            assert stats.skipped == {"unreadable": 2}
            assert idx.find_symbol("a_fn", exact=True)
    finally:
        os.chmod(root / "locked", 0o755)
        os.chmod(root / "secret.py", 0o644)


# --------------------------------------------------------------------------- the command line
def cli(*args: str) -> tuple[int, str, str]:
    """``codesift ARGS`` in-process: (exit code, stdout, stderr); an escaped exception counts as a traceback."""
    from click.testing import CliRunner

    from codesift.cli.app import main

    result = CliRunner().invoke(main, list(args), env={"CODESIFT_EMBEDDER": "none", "COLUMNS": "200"})
    err = result.stderr
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        err += "Traceback (in-process): " + repr(result.exception)
    return result.exit_code, result.stdout, err


@pytest.mark.subprocess
def test_cli_indexes_the_corpus_without_a_traceback(ctx: Ctx, tmp_path: Path) -> None:
    root = build_corpus(tmp_path / "corpus")
    env = dict(os.environ, CODESIFT_EMBEDDER="none", COLUMNS="200")
    # a real process: a crash in a parser would kill it, and its output is what a user sees
    first = subprocess.run([sys.executable, "-m", "codesift", "index", str(root)], env=env, capture_output=True,
                           text=True, timeout=120)
    assert first.returncode == 0, first.stderr
    assert "Traceback" not in first.stdout + first.stderr
    assert "skipped:" in first.stderr and "too_large" in first.stderr
    code, out, err = cli("index", str(root), "--json")
    assert code == 0 and "Traceback" not in err
    summary = json.loads(out)
    assert summary["files"] == ctx.status["files"] and summary["chunks"] == ctx.status["chunks"]
    assert summary["skipped"] == ctx.status["skipped"]
    code, out, err = cli("status", str(root), "--json")
    assert code == 0 and json.loads(out)["skipped_files"] == ctx.status["skipped_files"]
    code, out, err = cli("status", str(root))
    assert code == 0 and "Traceback" not in out + err and "too_large" in out


@pytest.mark.parametrize("symbol, path", [
    ("spaced_name_fn", "with space.py"),
    ("newline_name_fn", "new\nline.py"),
    ("unicode_name_fn", "\u00fcn\u00efc\u00f6d\u00e9_\u540d\u524d.py"),
    ("glob_name_fn", "glob[x]*?.py"),
    ("utf16_le_fn", "utf16_le.py"),
])
def test_cli_json_paths_are_exact(ctx: Ctx, symbol: str, path: str) -> None:
    code, out, err = cli("search", symbol, "--json", "--no-update", "--limit", "3", "--root", str(ctx.root))
    assert code == 0 and "Traceback" not in err
    items = json.loads(out)
    assert items[0]["path"] == path and items[0]["name"] == symbol
    assert (ctx.root / items[0]["path"]).is_file()
    # the exact path also works as a --path filter (glob characters and all)
    code, out, _ = cli("search", symbol, "--json", "--no-update", "--path", path, "--root", str(ctx.root))
    assert code == 0 and [item["path"] for item in json.loads(out)] == [path]


def test_cli_index_of_a_root_whose_path_looks_like_markup(tmp_path: Path) -> None:
    root = tmp_path / "br[" / "x]"  # the root's path holds the rich closing tag "[/x]"
    _small_tree(root)
    code, out, err = cli("index", str(root))
    assert code == 0 and "Traceback" not in out + err, err
    assert "[/x]" in err.replace("\n", "")  # printed as text


@pytest.mark.parametrize("command", ["search", "status"])
def test_cli_human_output_with_markup_in_a_path(tmp_path: Path, command: str) -> None:
    root = tmp_path / "br[" / "x]"
    _small_tree(root)
    (root / "notes.md").write_text("# Fix [/x] later\n\nmarkup_probe\n")
    assert cli("index", str(root), "-q")[0] == 0
    args = ["search", "markup_probe", "--root", str(root)] if command == "search" else ["status", str(root)]
    code, out, err = cli(*args)
    assert code == 0 and "Traceback" not in out + err, err


def test_utf16_with_bom_is_text_and_other_nul_bytes_are_binary() -> None:
    from codesift.indexing.discover import SNIFF_BYTES, is_binary

    text = "def f():\n    return '\u00e9\U0001f642'\n" * 1000
    for encoded in (text.encode("utf-16"), b"\xff\xfe" + text.encode("utf-16-le"),
                    b"\xfe\xff" + text.encode("utf-16-be")):
        for cut in (SNIFF_BYTES, SNIFF_BYTES - 1, SNIFF_BYTES - 3):  # the sniff may split a character or pair
            assert not is_binary(encoded[:cut])
    assert is_binary(b"\xff\xfe" + "a\x00b".encode("utf-16-le"))  # a NUL character
    assert is_binary(b"\xff\xfe\x00\x00" + "ab".encode("utf-32-le"))  # UTF-32 is not decoded as text
    assert is_binary(b"\xff\xfe" + b"\x00\xdc\x00\xdc")  # lone low surrogates: not UTF-16
    assert is_binary(b"abc\x00")


def test_long_lines_are_shortened_not_the_lines_after_them() -> None:
    from codesift.parse.chunks import MAX_TEXT, _cap

    text = "a" * 100_000 + "\nafter_long_line()\n" + "b" * 30_000 + "\nlast_line()"
    capped = _cap(text)
    assert len(capped) <= MAX_TEXT and capped.split("\n")[1::2] == ["after_long_line()", "last_line()"]
    assert capped.split("\n")[0].startswith("aaaa") and capped.split("\n")[2].startswith("bbbb")
    assert _cap("short\ntext") == "short\ntext"
    for lines in (["x" * 50_000] * 3, ["y" * 400] * 60, ["z"] * 30_000):
        assert len(_cap("\n".join(lines))) <= MAX_TEXT
