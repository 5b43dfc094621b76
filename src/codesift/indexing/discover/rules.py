"""What discovery leaves out and why: ignore chains, vendored and generated trees, lockfiles, binaries, size
limits; and the records it hands on (:class:`SourceFile`, :class:`Discovery`)."""

from __future__ import annotations

import codecs
import errno
import json
import os
import stat
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pathspec import GitIgnoreSpec

from codesift.languages import GRAMMAR_LANGUAGES, language_for

SNIFF_BYTES = 8192
# O_NONBLOCK: a file swapped for a FIFO after lstat must not hang the open.
OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)

# Version-control metadata is skipped silently: it is never source and reporting it is noise.
VCS_DIRS = frozenset({".git", ".hg", ".svn"})
VENDORED_DIRS = frozenset({
    "node_modules", "vendor", "dist", "build", ".venv", "venv", "__pycache__", ".tox",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", ".idea", ".next", ".nuxt", "coverage",
    "site-packages", "bower_components", ".gradle", ".terraform",
})
# Names that are also legitimate Python package names (pypa/build, coverage.py): kept when the
# directory holds an __init__.py.
AMBIGUOUS_DIRS = frozenset({"build", "dist", "coverage"})
# A published npm package often ships only its built code (yargs-parser: ``"main": "build/index.cjs"``, no
# sources): a ``dist``/``build`` folder its package.json points into is then its code. Not when the package
# holds sources beside it, which the folder only repeats.
_PACKAGE_CODE_DIRS = frozenset({"build", "dist"})
_PACKAGE_SOURCE_DIRS = ("src", "lib", "source", "sources", "ts")
_PACKAGE_ENTRY_FIELDS = ("main", "module", "browser", "exports", "bin", "types", "typings")
_MANIFEST_LIMIT = 1 << 20
# `target` is only a build tree next to a Cargo/Maven project file.
TARGET_MARKERS = ("Cargo.toml", "pom.xml")
LOCKFILES = frozenset({
    "package-lock.json", "yarn.lock", "pnpm-lock.yaml", "poetry.lock", "Cargo.lock",
    "Gemfile.lock", "composer.lock", "go.sum", "uv.lock", "Pipfile.lock", "npm-shrinkwrap.json",
})
_MINIFIED_SUFFIXES = (".min.js", ".min.css", ".bundle.js", ".map")
# gettext catalogs (.po/.pot) are translation data: thousands of files of msgid/msgstr pairs in a large
# project (1,272 in django), which bury code results and double the indexing time.
_GENERATED_SUFFIXES = ("_pb2.py", "_pb2.pyi", "_pb2_grpc.py", ".pb.go", ".po", ".pot")
BINARY_EXTENSIONS = frozenset({
    ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".ico", ".icns", ".webp", ".tif", ".tiff", ".psd",
    ".pdf", ".zip", ".gz", ".tgz", ".bz2", ".xz", ".zst", ".7z", ".rar", ".tar", ".whl", ".egg",
    ".so", ".dylib", ".dll", ".exe", ".bin", ".o", ".a", ".lib", ".obj", ".class", ".jar",
    ".pyc", ".pyo", ".pyd", ".woff", ".woff2", ".ttf", ".otf", ".eot", ".mp3", ".mp4", ".wav",
    ".flac", ".ogg", ".mov", ".avi", ".mkv", ".webm", ".sqlite", ".sqlite3", ".db", ".npy",
    ".npz", ".pkl", ".parquet", ".onnx", ".pt", ".safetensors",
})


@dataclass(slots=True, frozen=True)
class SourceFile:
    path: str  # relative to root, "/"-separated
    abspath: str
    size: int
    mtime: float  # st_mtime (of the target, for a symlink)


@dataclass(slots=True)
class Discovery:
    files: list[SourceFile]  # sorted by path
    skipped: dict[str, str]  # relative path (dirs end in "/") -> reason; plain ignores not listed
    mode: str = "walk"  # "git" or "walk": how candidates were listed
    # With explain=True: path (dirs end in "/") -> "gitignore" | "codesiftignore" for what ignore rules drop.
    ignored: dict[str, str] = field(default_factory=dict)
    included: list[str] = field(default_factory=list)  # kept only because an include pattern asks for them


def is_binary(head: bytes) -> bool:
    """True when the leading bytes of a file look binary (contain a NUL byte).

    UTF-16 text with a byte-order mark is full of NUL bytes but is text (the indexer decodes it):
    it is binary only when its decoded head holds a NUL character or does not decode.
    """
    if head.startswith((b"\xff\xfe", b"\xfe\xff")) and not head.startswith(b"\xff\xfe\x00\x00"):  # not UTF-32
        try:
            # Incremental: the sniff may end inside a character or a surrogate pair.
            text = codecs.getincrementaldecoder("utf-16")().decode(head, final=False)
        except UnicodeDecodeError:
            return True
        return "\0" in text
    return b"\0" in head


# --------------------------------------------------------------------------- ignore rules
# A layer is (base, prefix, spec): a path `rel` (relative to root) is matched as
# prefix + rel[len(base):], i.e. relative to the directory holding the ignore file. Ancestors of
# root (fallback walk inside a work tree) use base "" and a non-empty prefix.
_Layer = tuple[str, str, GitIgnoreSpec]
IgnoreChain = tuple[_Layer, ...]


def compile_ignore(lines: list[str]) -> GitIgnoreSpec | None:
    # Only an unindented "#" starts a comment in gitignore syntax.
    lines = [ln for ln in lines if ln.strip() and not ln.startswith("#")]
    if not lines:
        return None
    try:
        return GitIgnoreSpec.from_lines(lines)
    except ValueError:
        # One bad line must not void the whole file (git itself just skips it).
        good = []
        for ln in lines:
            try:
                GitIgnoreSpec.from_lines([ln])
                good.append(ln)
            except ValueError:
                pass
        return GitIgnoreSpec.from_lines(good) if good else None


def read_lines(path: str) -> list[str] | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read().splitlines()
    except OSError:
        return None


def extend_chain(chain: IgnoreChain, base: str, path: str, extra: Sequence[str] = ()) -> IgnoreChain:
    lines = read_lines(path)
    spec = compile_ignore((lines or []) + list(extra)) if (lines or extra) else None
    return chain + ((base, "", spec),) if spec is not None else chain


def is_ignored(chain: IgnoreChain, rel: str, is_dir: bool) -> bool:
    # Deepest ignore file first; the first one with an opinion (match or negation) decides.
    for base, prefix, spec in reversed(chain):
        sub = prefix + rel[len(base):]
        res = spec.check_file(sub + "/" if is_dir else sub)
        if res.include is not None:
            return bool(res.include)
    return False


# --------------------------------------------------------------------------- helpers
def is_vendored_dir(name: str, absdir: str, parent_has: Callable[[str], bool]) -> bool:
    if name == "target":
        return any(parent_has(m) for m in TARGET_MARKERS)
    if name not in VENDORED_DIRS:
        return False
    if name in AMBIGUOUS_DIRS and os.path.exists(os.path.join(absdir, "__init__.py")):
        return False
    if name in _PACKAGE_CODE_DIRS and _holds_package_code(name, absdir, parent_has):
        return False
    return True


def _holds_package_code(name: str, absdir: str, parent_has: Callable[[str], bool]) -> bool:
    """``absdir`` (``build``/``dist``) is where the package.json beside it says the package's code is, and
    the package holds no source folder (``src``, ``lib``)."""
    if not parent_has("package.json") or any(parent_has(d) for d in _PACKAGE_SOURCE_DIRS):
        return False
    try:
        with open(os.path.join(os.path.dirname(absdir), "package.json"), "rb") as fh:
            manifest = json.loads(fh.read(_MANIFEST_LIMIT))
    except (OSError, ValueError):
        return False
    if not isinstance(manifest, dict):
        return False
    stack = [manifest.get(f) for f in _PACKAGE_ENTRY_FIELDS]
    while stack:
        value = stack.pop()
        if isinstance(value, str):
            if value.removeprefix("./").startswith(name + "/"):
                return True
        elif isinstance(value, dict):
            stack.extend(value.values())
        elif isinstance(value, list):
            stack.extend(value)
    return False


def name_reason(name: str) -> str | None:
    """Reason to skip a file judging by its name alone (cheap, no I/O)."""
    if name in LOCKFILES:
        return "lockfile"
    low = name.lower()
    if low.endswith(_MINIFIED_SUFFIXES):
        return "minified"
    if low.endswith(_GENERATED_SUFFIXES) or ".generated." in low:
        return "generated"
    if os.path.splitext(low)[1] in BINARY_EXTENSIONS:
        return "binary"
    return None


def _within(path: str, root_real: str) -> bool:
    return path == root_real or path.startswith(root_real.rstrip(os.sep) + os.sep)


def follow_link(abspath: str, root_real: str) -> tuple[str | None, os.stat_result | None]:
    """Resolve a symlink: (reason to skip, None) or (None, stat of the regular-file target)."""
    try:
        st = os.stat(abspath)
    except FileNotFoundError:
        return "broken_symlink", None
    except OSError as exc:
        return ("symlink_loop" if exc.errno == errno.ELOOP else "unreadable"), None
    real = os.path.realpath(abspath)
    if not _within(real, root_real):
        return "symlink_outside_root", None
    if stat.S_ISDIR(st.st_mode):
        # Pointing at an ancestor (or itself) is a loop; anything else is a duplicate view of a
        # directory that is walked under its real path already.
        here = os.path.realpath(os.path.dirname(abspath))
        return ("symlink_loop" if _within(here, real) else "symlink_duplicate"), None
    if not stat.S_ISREG(st.st_mode):
        return "not_regular", None
    return None, st


# Source in a language codesift parses may be this many times ``max_file_size``: hand-written files of over
# a megabyte exist and are often a project's core (picocli's CommandLine.java, 1.2 MB; TypeScript's
# checker.ts, 3 MB), while data, logs and fixtures that large are noise in a code search.
SOURCE_SIZE_FACTOR = 4


def size_limit(path: str, max_file_size: int) -> int:
    """The largest size ``path`` is indexed at: ``max_file_size``, times ``SOURCE_SIZE_FACTOR`` for source
    in a grammar language."""
    return max_file_size * SOURCE_SIZE_FACTOR if language_for(path) in GRAMMAR_LANGUAGES else max_file_size
