"""``codesift index --all``: every configured service into the one index, under ``<name>/``.

A path service is discovered like a tree (its folder's git listing or a walk, codesift's skip rules,
``exclude`` as extra ignore lines, ``include`` as a whitelist). A git service is listed at its ref's
commit with ``git ls-tree`` and read blob by blob from one ``git cat-file --batch`` process; a file's
(size, blob id) stands in for (size, mtime), so only changed blobs are read, and a service whose commit
and settings did not change is not listed at all. Whatever the store holds outside the services (an
earlier tree index, a service no longer listed) is deleted.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterable
from typing import TYPE_CHECKING

from pathspec import GitIgnoreSpec

from codesift.config.settings import INDEX_DIR_NAME
from codesift.indexing.compiled import compiled_copies
from codesift.indexing.discover import (AMBIGUOUS_DIRS, TARGET_MARKERS, VCS_DIRS, VENDORED_DIRS, Discovery, SourceFile,
                       compile_ignore, name_reason, discover, size_limit)
from codesift.indexing.gitblobs import BlobReader, GitSourceError, TreeEntry, head_commit, list_tree, resolve_commit
from codesift.indexing.sources import META_PREFIX, MODE_KEY, recorded
from codesift.config.services import ServiceSpec

if TYPE_CHECKING:  # pragma: no cover
    from codesift.indexing.indexer import Indexer, Progress, UpdateStats
    from codesift.store.sqlite import FileRow

SERVICES_KEY = "services"  # meta: JSON list of the service names indexed by the last complete run


def blob_stamp(sha: str) -> float:
    """A git blob id as the float the files table keeps as mtime (52 bits: exact in a double)."""
    return float(int(sha[:13], 16))


def _whitelist(spec: ServiceSpec) -> GitIgnoreSpec | None:
    return GitIgnoreSpec.from_lines(spec.include) if spec.include else None


def _path_service(spec: ServiceSpec, known: dict[str, "FileRow"], max_size: int) -> Discovery:
    """A folder service's files, paths already under ``<name>/``."""
    assert spec.folder is not None
    if not spec.folder.is_dir():
        raise GitSourceError(f"service {spec.name!r}: folder {spec.folder} does not exist")
    prefix = spec.prefix
    inner_known = {p[len(prefix):]: (r.size, r.mtime) for p, r in known.items() if p.startswith(prefix)}
    found = discover(spec.folder, max_file_size=max_size, extra_ignores=spec.exclude,
                     index_dir_name=INDEX_DIR_NAME, known=inner_known)
    keep = _whitelist(spec)
    files = [SourceFile(prefix + f.path, f.abspath, f.size, f.mtime) for f in found.files
             if keep is None or keep.match_file(f.path)]
    skipped = {prefix + p: r for p, r in found.skipped.items()}
    return Discovery(files=files, skipped=skipped, mode=found.mode)


def _vendored(dirs: list[str], names: set[str]) -> str | None:
    """The first folder of ``dirs`` (a file's ancestors, outermost first) that is a vendored one."""
    for i, name in enumerate(dirs):
        folder = "/".join(dirs[: i + 1])
        if name in VCS_DIRS:
            return folder
        if name == "target":
            if any(f"{folder[: -len(name)]}{m}" in names for m in TARGET_MARKERS):
                return folder
        elif name in VENDORED_DIRS and not (name in AMBIGUOUS_DIRS and f"{folder}/__init__.py" in names):
            return folder
    return None


def select_entries(entries: Iterable[TreeEntry], spec: ServiceSpec, max_size: int,
                   ignore_lines: list[str]) -> tuple[list[TreeEntry], dict[str, str]]:
    """The tree entries codesift indexes, and the skipped ones with why (paths inside the service)."""
    entries = list(entries)
    names = {e.path for e in entries}
    ignore = compile_ignore([*ignore_lines, *spec.exclude])
    keep = _whitelist(spec)
    out: list[TreeEntry] = []
    skipped: dict[str, str] = {}
    for e in entries:
        if ignore is not None and ignore.match_file(e.path):
            continue
        if keep is not None and not keep.match_file(e.path):
            continue
        dirs = e.path.split("/")[:-1]
        folder = _vendored(dirs, names)
        if folder is not None:
            if folder.rpartition("/")[2] not in VCS_DIRS:
                skipped[folder + "/"] = "vendored"
            continue
        if e.mode == "160000":
            skipped[e.path + "/"] = "nested_repo"
        elif e.mode == "120000":
            skipped[e.path] = "symlink"
        elif reason := name_reason(e.path.rpartition("/")[2]):
            skipped[e.path] = reason
        elif e.size > size_limit(e.path, max_size):
            skipped[e.path] = "too_large"
        else:
            out.append(e)
    copies = compiled_copies(e.path for e in out)
    for path in copies:
        skipped[path] = "compiled"
    return [e for e in out if e.path not in copies], skipped


def _git_service(spec: ServiceSpec, commit: str, reader: BlobReader, max_size: int) -> tuple[Discovery, dict[str, str]]:
    """A git service's files at ``commit`` and (path → blob id) of each."""
    assert spec.repo is not None
    entries = list_tree(spec.repo, commit)
    ignore_lines: list[str] = []
    root_ignore = next((e for e in entries if e.path == ".codesiftignore"), None)
    if root_ignore is not None:
        ignore_lines = reader.read(root_ignore.sha).decode("utf-8", "replace").splitlines()
    chosen, skipped = select_entries(entries, spec, max_size, ignore_lines)
    prefix = spec.prefix
    files = [SourceFile(prefix + e.path, "", e.size, blob_stamp(e.sha)) for e in chosen]
    blobs = {prefix + e.path: e.sha for e in chosen}
    return Discovery(files=files, skipped={prefix + p: r for p, r in skipped.items()}, mode="git"), blobs


def update_services(indexer: "Indexer", specs: tuple[ServiceSpec, ...], known: dict[str, "FileRow"],
                    stats: "UpdateStats", progress: "Progress | None", t0: float) -> "UpdateStats":
    """Index every service of ``specs`` into ``indexer``'s store (see the module docstring)."""
    store, max_size = indexer.store, indexer.config.max_file_size
    old_skipped = store.skipped()
    files: list[SourceFile] = []
    skipped: dict[str, str] = {}
    blobs: dict[str, tuple[BlobReader, str]] = {}
    records: dict[str, dict[str, object]] = {}
    readers: list[BlobReader] = []
    stats.services = {}
    try:
        for spec in specs:
            t = time.perf_counter()
            if spec.repo is None:
                found = _path_service(spec, known, max_size)
                commit = head_commit(spec.folder) if spec.folder else None
                state = "listed"
            else:
                commit = resolve_commit(spec.repo, spec.ref)
                before = recorded(store, spec.name)
                settings = spec.settings_key(max_size)
                if before.get("commit") == commit and before.get("settings") == settings:
                    # Same commit, same rules: the stored files are the service's files.
                    found = Discovery(
                        files=[SourceFile(p, "", r.size, r.mtime) for p, r in known.items()
                               if p.startswith(spec.prefix)],
                        skipped={p: r for p, r in old_skipped.items() if p.startswith(spec.prefix)})
                    state = "unchanged"
                else:
                    reader = BlobReader(spec.repo)
                    readers.append(reader)
                    found, ids = _git_service(spec, commit, reader, max_size)
                    blobs.update({p: (reader, sha) for p, sha in ids.items()})
                    state = "listed"
            files += found.files
            skipped.update(found.skipped)
            records[spec.name] = {"kind": spec.kind, "source": str(spec.repo or spec.folder), "ref": spec.ref
                                  if spec.repo else None, "commit": commit,
                                  "settings": spec.settings_key(max_size) if spec.repo else None}
            stats.services[spec.name] = {"files": len(found.files), "commit": commit, "state": state,
                                         "seconds": round(time.perf_counter() - t, 3)}

        def source(f: SourceFile) -> str | bytes:
            hit = blobs.get(f.path)
            if hit is None:
                return f.abspath
            try:
                return hit[0].read(hit[1])
            except OSError:
                return os.devnull + "/missing-blob"  # read as unreadable: counted, retried next run

        files.sort(key=lambda f: f.path)
        indexer.apply(Discovery(files=files, skipped=skipped), known, stats, progress, t0, source)
    finally:
        for reader in readers:
            reader.close()
    for name in json.loads(store.get_meta(SERVICES_KEY) or "[]"):
        if name not in records:
            store.set_meta(META_PREFIX + name, "")
    for name, record in records.items():
        store.set_meta(META_PREFIX + name, json.dumps(record))
    store.set_meta(SERVICES_KEY, json.dumps(sorted(records)))
    store.set_meta(MODE_KEY, "1")
    store.commit()
    return stats
