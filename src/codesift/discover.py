"""Find the source files under a root: git-aware listing or an ignore-aware walk, minus junk.

Two ways to list candidates:

* inside a git work tree, ``git ls-files`` (tracked + untracked-not-ignored), which is exact and
  fast; paths git lists but that no longer exist (deleted, sparse) are dropped silently;
* elsewhere (or when git is missing / fails), an iterative ``os.scandir`` walk honouring every
  nested ``.gitignore``.

Both then apply the same filters: ``.codesiftignore`` files (root and nested) plus
``extra_ignores`` (treated as lines appended to the root ``.codesiftignore``), the index folder,
vendored/generated trees, lockfiles, minified bundles, generated code, JavaScript compiled from TypeScript
sources the tree also holds or a second build of it (:mod:`codesift.compiled`), size limit (:func:`size_limit`), binary sniff.
``.codesiftignore`` can only exclude more: its ``!`` lines cannot re-include what git ignores.
``include`` patterns (:mod:`codesift.include`) do that: a file they match is kept although git ignores
it, it lies in a vendored folder or its name marks it generated; ``.codesiftignore`` still wins.
With ``explain``, paths left out by an ignore rule are reported too (``Discovery.ignored``), for
``codesift index --dry-run``.

Symlinked directories are never followed: a target inside root is walked under its real path
anyway (following would duplicate or loop, which is also what git does), one outside is out of
scope. Symlinked files are kept when their target is a regular file inside root.
"""

from __future__ import annotations

import codecs
import errno
import json
import os
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from pathspec import GitIgnoreSpec

from .compiled import compiled_copies
from .gitfiles import _find_git_top, _git_ignored, _git_ignores_root, _git_ls_files
from .include import IncludeRules
from .languages import GRAMMAR_LANGUAGES, language_for

__all__ = ["SourceFile", "Discovery", "discover", "is_binary"]

SNIFF_BYTES = 8192
# O_NONBLOCK: a file swapped for a FIFO after lstat must not hang the open.
_O_FLAGS = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)

# Version-control metadata is skipped silently: it is never source and reporting it is noise.
VCS_DIRS = frozenset({".git", ".hg", ".svn"})
VENDORED_DIRS = frozenset({
    "node_modules", "vendor", "dist", "build", ".venv", "venv", "__pycache__", ".tox",
    ".mypy_cache", ".pytest_cache", ".ruff_cache", ".idea", ".next", ".nuxt", "coverage",
    "site-packages", "bower_components", ".gradle", ".terraform",
})
# Names that are also legitimate Python package names (pypa/build, coverage.py): kept when the
# directory holds an __init__.py.
_AMBIGUOUS_DIRS = frozenset({"build", "dist", "coverage"})
# A published npm package often ships only its built code (yargs-parser: ``"main": "build/index.cjs"``, no
# sources): a ``dist``/``build`` folder its package.json points into is then its code. Not when the package
# holds sources beside it, which the folder only repeats.
_PACKAGE_CODE_DIRS = frozenset({"build", "dist"})
_PACKAGE_SOURCE_DIRS = ("src", "lib", "source", "sources", "ts")
_PACKAGE_ENTRY_FIELDS = ("main", "module", "browser", "exports", "bin", "types", "typings")
_MANIFEST_LIMIT = 1 << 20
# `target` is only a build tree next to a Cargo/Maven project file.
_TARGET_MARKERS = ("Cargo.toml", "pom.xml")
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
_Chain = tuple[_Layer, ...]


def _compile(lines: list[str]) -> GitIgnoreSpec | None:
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


def _read_lines(path: str) -> list[str] | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as fh:
            return fh.read().splitlines()
    except OSError:
        return None


def _extend(chain: _Chain, base: str, path: str, extra: Sequence[str] = ()) -> _Chain:
    lines = _read_lines(path)
    spec = _compile((lines or []) + list(extra)) if (lines or extra) else None
    return chain + ((base, "", spec),) if spec is not None else chain


def _ignored(chain: _Chain, rel: str, is_dir: bool) -> bool:
    # Deepest ignore file first; the first one with an opinion (match or negation) decides.
    for base, prefix, spec in reversed(chain):
        sub = prefix + rel[len(base):]
        res = spec.check_file(sub + "/" if is_dir else sub)
        if res.include is not None:
            return bool(res.include)
    return False


# --------------------------------------------------------------------------- helpers
def _is_vendored_dir(name: str, absdir: str, parent_has: Callable[[str], bool]) -> bool:
    if name == "target":
        return any(parent_has(m) for m in _TARGET_MARKERS)
    if name not in VENDORED_DIRS:
        return False
    if name in _AMBIGUOUS_DIRS and os.path.exists(os.path.join(absdir, "__init__.py")):
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


def _name_reason(name: str) -> str | None:
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


def _follow_link(abspath: str, root_real: str) -> tuple[str | None, os.stat_result | None]:
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


class _Collector:
    """Shared per-file checks and the output being built."""

    def __init__(self, root: str, max_file_size: int, known: Mapping[str, tuple[int, float]] | None = None,
                 include: IncludeRules | None = None, explain: bool = False) -> None:
        self.root = root
        self.known = known or {}
        self.root_real = os.path.realpath(root)
        self.max_file_size = max_file_size
        self.include = include or IncludeRules()
        self.explain = explain
        self.files: list[SourceFile] = []
        self.skipped: dict[str, str] = {}
        self.ignored: dict[str, str] = {}
        self.included: list[str] = []

    def skip(self, rel: str, reason: str) -> None:
        # Keys must survive UTF-8 encoding downstream (JSON, SQLite, terminal).
        self.skipped[rel.encode("utf-8", "backslashreplace").decode("utf-8")] = reason

    def note(self, rel: str, is_dir: bool, reason: str) -> None:
        """With ``explain``: remember a path an ignore rule dropped (such paths are not listed otherwise)."""
        if self.explain:
            key = rel.rstrip("/") + "/" if is_dir else rel
            self.ignored[key.encode("utf-8", "backslashreplace").decode("utf-8")] = reason

    def _keep(self, rel: str, abspath: str, st: os.stat_result, rescued: bool) -> None:
        self.files.append(SourceFile(rel, abspath, st.st_size, st.st_mtime))
        if rescued:
            self.included.append(rel)

    def add(self, rel: str, abspath: str, rescued: bool = False) -> None:
        """Apply name/stat/content checks to one candidate file (ignore rules already passed).

        ``rescued``: the file is only a candidate because an include pattern asks for it."""
        try:
            rel.encode("utf-8")
        except UnicodeEncodeError:
            self.skip(rel, "undecodable_name")
            return
        reason = _name_reason(rel.rpartition("/")[2])
        if reason and reason != "binary" and self.include.matches(rel):
            reason, rescued = None, True  # asked for: generated, minified or a lockfile all the same
        if reason:
            self.skip(rel, reason)
            return
        try:
            st = os.lstat(abspath)
        except FileNotFoundError:
            return  # listed by git but gone from disk: not a file any more
        except OSError:
            self.skip(rel, "unreadable")
            return
        if stat.S_ISLNK(st.st_mode):
            reason, target = _follow_link(abspath, self.root_real)
            if target is None:
                self.skip(rel, reason or "unreadable")
                return
            st = target
        elif stat.S_ISDIR(st.st_mode):
            # git lists submodules and untracked nested repositories as directories.
            self.skip(rel.rstrip("/") + "/", "nested_repo")
            return
        elif not stat.S_ISREG(st.st_mode):
            self.skip(rel, "not_regular")
            return
        if st.st_size > size_limit(rel, self.max_file_size):
            self.skip(rel, "too_large")
            return
        if self.known.get(rel) == (st.st_size, st.st_mtime):
            # Indexed as text before and unchanged since: no need to open it again (a warm re-scan of
            # 4k files spent a third of its time on these sniffs).
            self._keep(rel, abspath, st, rescued)
            return
        try:
            # Raw os-level read: no buffered file object for a single 8 KiB sniff.
            fd = os.open(abspath, _O_FLAGS)
            try:
                head = os.read(fd, SNIFF_BYTES)
            finally:
                os.close(fd)
        except OSError:
            self.skip(rel, "unreadable")
            return
        if is_binary(head):
            self.skip(rel, "binary")
            return
        self._keep(rel, abspath, st, rescued)


# --------------------------------------------------------------------------- modes
def _discover_git(col: _Collector, paths: list[str], cs_root: _Chain, index_dir: str) -> None:
    root = col.root
    sep = os.sep
    # reldir ("a/b/") -> (state, chain); state None = walk on, "drop" = contents not wanted,
    # "only" = a vendored folder that include patterns may take files from.
    dirs: dict[str, tuple[str | None, _Chain]] = {"": (None, cs_root)}

    def dir_info(reldir: str) -> tuple[str | None, _Chain]:
        hit = dirs.get(reldir)
        if hit is not None:
            return hit
        parent, _, name = reldir[:-1].rpartition("/")
        parent = parent + "/" if parent else ""
        pstate, pchain = dir_info(parent)
        absdir = os.path.join(root, reldir[:-1].replace("/", sep))
        if pstate == "drop" or name in VCS_DIRS or (not parent and name == index_dir):
            info: tuple[str | None, _Chain] = ("drop", pchain)
        elif _ignored(pchain, reldir[:-1], True):
            col.note(reldir, True, "codesiftignore")
            info = ("drop", pchain)
        elif pstate is None and _is_vendored_dir(
            name, absdir, lambda m: os.path.exists(os.path.join(root, (parent + m).replace("/", sep)))
        ):
            if col.include.may_contain(reldir):
                info = ("only", _extend(pchain, reldir, os.path.join(absdir, ".codesiftignore")))
            else:
                col.skip(reldir, "vendored")
                info = ("drop", pchain)
        else:
            info = (pstate, _extend(pchain, reldir, os.path.join(absdir, ".codesiftignore")))
        dirs[reldir] = info
        return info

    for rel in paths:
        is_dir = rel.endswith("/")
        rel = rel.rstrip("/")
        head, _, name = rel.rpartition("/")
        state, chain = dir_info(head + "/" if head else "")
        if state == "drop" or (not head and name == index_dir):
            continue
        if _ignored(chain, rel, is_dir):
            col.note(rel, is_dir, "codesiftignore")
            continue
        if state == "only" and not col.include.matches(rel):
            continue
        col.add(rel, os.path.join(root, rel.replace("/", sep)), rescued=state == "only")
    if not (col.include or col.explain):
        return
    # What git ignores: reported with explain, and searched for files the include patterns ask for.
    for rel in _git_ignored(root):
        is_dir = rel.endswith("/")
        rel = rel.rstrip("/")
        head, _, name = rel.rpartition("/")
        state, chain = dir_info(head + "/" if head else "")
        if state == "drop" or name in VCS_DIRS or (not head and name == index_dir) or _ignored(chain, rel, is_dir):
            continue
        if is_dir and col.include.may_contain(rel + "/"):
            _discover_walk(col, (), (), index_dir, start=(rel + "/", chain))
        elif not is_dir and col.include.matches(rel):
            col.add(rel, os.path.join(root, rel.replace("/", sep)), rescued=True)
        else:
            col.note(rel, is_dir, "gitignore")


def _ancestor_chain(root: str) -> _Chain:
    """Ignore rules above root, for a fallback walk inside a git work tree without git."""
    top = _find_git_top(root)
    if top is None:
        return ()
    # Prefix that turns a root-relative path into one relative to `top`.
    rel_root = "" if top == root else os.path.relpath(root, top).replace(os.sep, "/") + "/"
    chain: _Chain = ()
    exclude = _compile(_read_lines(os.path.join(top, ".git", "info", "exclude")) or [])
    if exclude is not None:
        chain += (("", rel_root, exclude),)
    parts = rel_root.rstrip("/").split("/") if rel_root else []
    for i in range(len(parts)):  # .gitignore files strictly above root
        spec = _compile(_read_lines(os.path.join(top, *parts[:i], ".gitignore")) or [])
        if spec is not None:
            chain += (("", "/".join(parts[i:]) + "/", spec),)
    return chain


def _discover_walk(col: _Collector, git_root: _Chain, cs_extra: Sequence[str], index_dir: str,
                   start: tuple[str, _Chain] | None = None) -> None:
    """Walk root; or, with ``start`` = (reldir, .codesiftignore chain), only that ignored folder, keeping
    the files the include patterns ask for."""
    root = col.root
    top = root if start is None else os.path.join(root, start[0].rstrip("/").replace("/", os.sep))
    visited: set[tuple[int, int]] = set()
    try:
        st = os.stat(top)
        visited.add((st.st_dev, st.st_ino))
    except OSError:
        pass
    # (reldir with trailing "/" or "", absdir, inherited .gitignore chain, .codesiftignore chain,
    #  whether only files asked for by include patterns are kept)
    stack: list[tuple[str, str, _Chain, _Chain, bool]] = (
        [("", root, git_root, (), False)] if start is None else [(start[0], top, (), start[1], True)]
    )
    while stack:
        reldir, absdir, gchain, cchain, only = stack.pop()
        try:
            with os.scandir(absdir) as it:
                entries = list(it)
        except OSError:
            col.skip(reldir or "./", "unreadable")
            continue
        names = {e.name for e in entries}
        if ".gitignore" in names and not only:
            gchain = _extend(gchain, reldir, os.path.join(absdir, ".gitignore"))
        if ".codesiftignore" in names or (not reldir and cs_extra):
            cchain = _extend(cchain, reldir, os.path.join(absdir, ".codesiftignore"),
                             cs_extra if not reldir else ())
        for e in entries:
            name = e.name
            rel = reldir + name
            try:
                is_dir = e.is_dir(follow_symlinks=False)
            except OSError:
                is_dir = False
            if is_dir and (name in VCS_DIRS or (not reldir and name == index_dir)):
                continue
            if _ignored(cchain, rel, is_dir):
                col.note(rel, is_dir, "codesiftignore")
                continue
            sub_only = only
            if not only and _ignored(gchain, rel, is_dir):
                if not (col.include.may_contain(rel + "/") if is_dir else col.include.matches(rel)):
                    col.note(rel, is_dir, "gitignore")
                    continue
                sub_only = True
            if not is_dir:
                if not sub_only or col.include.matches(rel):
                    col.add(rel, e.path, rescued=sub_only)
                continue
            if sub_only and not col.include.may_contain(rel + "/"):
                continue
            if not sub_only and _is_vendored_dir(name, e.path, names.__contains__):
                if not col.include.may_contain(rel + "/"):
                    col.skip(rel + "/", "vendored")
                    continue
                sub_only = True
            try:
                dst = e.stat(follow_symlinks=False)
            except OSError:
                col.skip(rel + "/", "unreadable")
                continue
            key = (dst.st_dev, dst.st_ino)
            if key in visited:  # bind mount / hard-linked directory cycle
                col.skip(rel + "/", "symlink_loop")
                continue
            visited.add(key)
            stack.append((rel + "/", e.path, gchain, cchain, sub_only))


def discover(
    root: str | os.PathLike[str],
    *,
    max_file_size: int = 1_048_576,
    extra_ignores: Sequence[str] = (),
    index_dir_name: str = ".codesift",
    known: Mapping[str, tuple[int, float]] | None = None,
    include: Sequence[str] = (),
    explain: bool = False,
) -> Discovery:
    """List indexable source files under `root`, with reasons for the notable ones skipped.

    ``known`` maps paths indexed before to their (size, mtime): such files, unchanged, are not opened
    again to check that they are text. ``include``: gitignore-style patterns of files to keep although
    git or a default rule leaves them out. ``explain``: also report what ignore rules dropped.

    Raises FileNotFoundError / NotADirectoryError when `root` is missing or not a directory.
    """
    root_s = os.path.abspath(os.fspath(root))
    if not os.path.exists(root_s):
        raise FileNotFoundError(f"no such directory: {os.fspath(root)}")
    if not os.path.isdir(root_s):
        raise NotADirectoryError(f"not a directory: {os.fspath(root)}")
    col = _Collector(root_s, max_file_size, known, IncludeRules(include), explain)
    extra = list(extra_ignores)
    paths: list[str] | None = None
    in_repo = _find_git_top(root_s) is not None
    if in_repo:
        paths = _git_ls_files(root_s)
        if not paths and paths is not None and _git_ignores_root(root_s):
            # The user pointed at a directory git ignores wholesale: index it as a plain tree
            # rather than return nothing; the rules that ignore root itself no longer apply.
            paths, in_repo = None, False
    if paths is not None:
        cs_root = _extend((), "", os.path.join(root_s, ".codesiftignore"), extra)
        _discover_git(col, paths, cs_root, index_dir_name)
    else:
        _discover_walk(col, _ancestor_chain(root_s) if in_repo else (), extra, index_dir_name)
    copies = compiled_copies(f.path for f in col.files)
    if copies:  # compiler output of sources here too, or a second build (an include pattern keeps one)
        copies = {p for p in copies if not col.include.matches(p)}
        col.files = [f for f in col.files if f.path not in copies]
        col.included = [p for p in col.included if p not in copies]
        for p in copies:
            col.skip(p, "compiled")
    col.files.sort(key=lambda f: f.path)
    mode = "git" if paths is not None else "walk"
    return Discovery(files=col.files, skipped=dict(sorted(col.skipped.items())), mode=mode,
                     ignored=dict(sorted(col.ignored.items())), included=sorted(col.included))
