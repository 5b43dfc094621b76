"""Find the source files under a root: git-aware listing or an ignore-aware walk, minus junk.

Two ways to list candidates:

* inside a git work tree, ``git ls-files`` (tracked + untracked-not-ignored), which is exact and
  fast; paths git lists but that no longer exist (deleted, sparse) are dropped silently;
* elsewhere (or when git is missing / fails), an iterative ``os.scandir`` walk honouring every
  nested ``.gitignore``.

Both then apply the same filters: ``.codesiftignore`` files (root and nested) plus
``extra_ignores`` (treated as lines appended to the root ``.codesiftignore``), the index folder,
vendored/generated trees, lockfiles, minified bundles, generated code, JavaScript compiled from TypeScript
sources the tree also holds or a second build of it (:mod:`codesift.indexing.compiled`), size limit
(:func:`size_limit`), binary sniff.
``.codesiftignore`` can only exclude more: its ``!`` lines cannot re-include what git ignores.
``include`` patterns (:mod:`codesift.config.include`) do that: a file they match is kept although git ignores
it, it lies in a vendored folder or its name marks it generated; ``.codesiftignore`` still wins.
With ``explain``, paths left out by an ignore rule are reported too (``Discovery.ignored``), for
``codesift index --dry-run``.

Symlinked directories are never followed: a target inside root is walked under its real path
anyway (following would duplicate or loop, which is also what git does), one outside is out of
scope. Symlinked files are kept when their target is a regular file inside root.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Mapping, Sequence


from codesift.indexing.compiled import compiled_copies
from codesift.indexing.gitfiles import find_git_top, git_ignored, git_ignores_root, git_ls_files
from codesift.config.include import IncludeRules

from codesift.indexing.discover.rules import (OPEN_FLAGS, SNIFF_BYTES, VCS_DIRS, Discovery, IgnoreChain, SourceFile,
                                             compile_ignore, extend_chain, follow_link, is_binary, is_ignored,
                                             is_vendored_dir, name_reason, read_lines, size_limit)


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
        reason = name_reason(rel.rpartition("/")[2])
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
            reason, target = follow_link(abspath, self.root_real)
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
            fd = os.open(abspath, OPEN_FLAGS)
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
def _discover_git(col: _Collector, paths: list[str], cs_root: IgnoreChain, index_dir: str) -> None:
    root = col.root
    sep = os.sep
    # reldir ("a/b/") -> (state, chain); state None = walk on, "drop" = contents not wanted,
    # "only" = a vendored folder that include patterns may take files from.
    dirs: dict[str, tuple[str | None, IgnoreChain]] = {"": (None, cs_root)}

    def dir_info(reldir: str) -> tuple[str | None, IgnoreChain]:
        hit = dirs.get(reldir)
        if hit is not None:
            return hit
        parent, _, name = reldir[:-1].rpartition("/")
        parent = parent + "/" if parent else ""
        pstate, pchain = dir_info(parent)
        absdir = os.path.join(root, reldir[:-1].replace("/", sep))
        if pstate == "drop" or name in VCS_DIRS or (not parent and name == index_dir):
            info: tuple[str | None, IgnoreChain] = ("drop", pchain)
        elif is_ignored(pchain, reldir[:-1], True):
            col.note(reldir, True, "codesiftignore")
            info = ("drop", pchain)
        elif pstate is None and is_vendored_dir(
            name, absdir, lambda m: os.path.exists(os.path.join(root, (parent + m).replace("/", sep)))
        ):
            if col.include.may_contain(reldir):
                info = ("only", extend_chain(pchain, reldir, os.path.join(absdir, ".codesiftignore")))
            else:
                col.skip(reldir, "vendored")
                info = ("drop", pchain)
        else:
            info = (pstate, extend_chain(pchain, reldir, os.path.join(absdir, ".codesiftignore")))
        dirs[reldir] = info
        return info

    for rel in paths:
        is_dir = rel.endswith("/")
        rel = rel.rstrip("/")
        head, _, name = rel.rpartition("/")
        state, chain = dir_info(head + "/" if head else "")
        if state == "drop" or (not head and name == index_dir):
            continue
        if is_ignored(chain, rel, is_dir):
            col.note(rel, is_dir, "codesiftignore")
            continue
        if state == "only" and not col.include.matches(rel):
            continue
        col.add(rel, os.path.join(root, rel.replace("/", sep)), rescued=state == "only")
    if not (col.include or col.explain):
        return
    # What git ignores: reported with explain, and searched for files the include patterns ask for.
    for rel in git_ignored(root):
        is_dir = rel.endswith("/")
        rel = rel.rstrip("/")
        head, _, name = rel.rpartition("/")
        state, chain = dir_info(head + "/" if head else "")
        if state == "drop" or name in VCS_DIRS or (not head and name == index_dir) or is_ignored(chain, rel, is_dir):
            continue
        if is_dir and col.include.may_contain(rel + "/"):
            _discover_walk(col, (), (), index_dir, start=(rel + "/", chain))
        elif not is_dir and col.include.matches(rel):
            col.add(rel, os.path.join(root, rel.replace("/", sep)), rescued=True)
        else:
            col.note(rel, is_dir, "gitignore")


def _ancestor_chain(root: str) -> IgnoreChain:
    """Ignore rules above root, for a fallback walk inside a git work tree without git."""
    top = find_git_top(root)
    if top is None:
        return ()
    # Prefix that turns a root-relative path into one relative to `top`.
    rel_root = "" if top == root else os.path.relpath(root, top).replace(os.sep, "/") + "/"
    chain: IgnoreChain = ()
    exclude = compile_ignore(read_lines(os.path.join(top, ".git", "info", "exclude")) or [])
    if exclude is not None:
        chain += (("", rel_root, exclude),)
    parts = rel_root.rstrip("/").split("/") if rel_root else []
    for i in range(len(parts)):  # .gitignore files strictly above root
        spec = compile_ignore(read_lines(os.path.join(top, *parts[:i], ".gitignore")) or [])
        if spec is not None:
            chain += (("", "/".join(parts[i:]) + "/", spec),)
    return chain


def _discover_walk(col: _Collector, git_root: IgnoreChain, cs_extra: Sequence[str], index_dir: str,
                   start: tuple[str, IgnoreChain] | None = None) -> None:
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
    stack: list[tuple[str, str, IgnoreChain, IgnoreChain, bool]] = (
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
            gchain = extend_chain(gchain, reldir, os.path.join(absdir, ".gitignore"))
        if ".codesiftignore" in names or (not reldir and cs_extra):
            cchain = extend_chain(cchain, reldir, os.path.join(absdir, ".codesiftignore"),
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
            if is_ignored(cchain, rel, is_dir):
                col.note(rel, is_dir, "codesiftignore")
                continue
            sub_only = only
            if not only and is_ignored(gchain, rel, is_dir):
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
            if not sub_only and is_vendored_dir(name, e.path, names.__contains__):
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
    in_repo = find_git_top(root_s) is not None
    if in_repo:
        paths = git_ls_files(root_s)
        if not paths and paths is not None and git_ignores_root(root_s):
            # The user pointed at a directory git ignores wholesale: index it as a plain tree
            # rather than return nothing; the rules that ignore root itself no longer apply.
            paths, in_repo = None, False
    if paths is not None:
        cs_root = extend_chain((), "", os.path.join(root_s, ".codesiftignore"), extra)
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
