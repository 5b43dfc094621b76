"""``codesift doctor``: the dry run (:func:`codesift.doctor.dry_run.dry_run`) plus the health of the index that
exists, if one does: schema, model, embedding coverage, grammar failures, quarantined files, and how far
the index is behind the tree."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from codesift.config.settings import INDEX_DIR_NAME, Config, load_config
from codesift.doctor.dry_run import dry_run
from codesift.search.coverage import dominating, share

__all__ = ["doctor", "index_health"]


def _folder(root: Path, config: Config) -> Path:
    return Path(config.index_dir).expanduser() if config.index_dir else root / INDEX_DIR_NAME


def index_health(root: Path, config: Config, would_index: list[str]) -> dict[str, object]:
    """The existing index of ``root``: ``{exists: False}`` when there is none (nothing is created)."""
    from codesift.api import Index, IndexMismatchError
    from codesift.indexing.indexer import QUARANTINE_AFTER
    from codesift.store.damage import IndexDamaged
    from codesift.store.schema import SCHEMA_VERSION
    from codesift.store.sqlite import MetaStore

    folder = _folder(root, config)
    if not (folder / "meta.db").is_file():
        return {"exists": False, "index_dir": str(folder), "problems": [],
                "note": f"no index yet; `codesift index {root}` builds one"}
    problems: list[str] = []
    try:
        store = MetaStore(folder / "meta.db", readonly=True)  # read before Index() may migrate it
        try:
            schema = store.get_meta("schema_version")
            damage = store.integrity_check()  # every page and index entry: the check a search cannot afford
        finally:
            store.close()
    except IndexDamaged as exc:
        damage = exc.reason
    if damage:
        problems.append(f"the index database {folder / 'meta.db'} is damaged ({damage}): `codesift index` sets it "
                        "aside and rebuilds the index from the tree")
        return {"exists": True, "index_dir": str(folder), "damaged": damage, "problems": problems}
    health: dict[str, object] = {"exists": True, "index_dir": str(folder),
                                 "schema": {"index": schema, "needed": SCHEMA_VERSION}}
    if schema not in (None, SCHEMA_VERSION):
        if schema not in ("1", "2"):  # the migrations this codesift knows (store/sqlite.py migrate_from)
            problems.append(f"the index has schema {schema}, this codesift needs {SCHEMA_VERSION}: "
                            f"rebuild it with `codesift index --rebuild {root}`")
            health["problems"] = problems
            return health
        problems.append(f"the index has schema {schema}: the next `codesift index` migrates it (re-parses every file)")
    try:
        with Index(root, config=config, create=False) as idx:
            info = idx.status()
            known = idx.store.files()
            per_file = idx.store.chunks_per_file()
    except IndexMismatchError as exc:
        problems.append(str(exc))
        health["problems"] = problems
        return health
    keep = ("files", "symbols", "chunks", "embedded", "coverage", "model", "dim", "embedding_status", "embedding",
            "embedding_reason", "embedding_fix", "last_update", "quarantined", "grammar_errors", "skipped", "reranker")
    status: Mapping[str, Any] = info
    health.update({k: status[k] for k in keep if k in status})
    now = set(would_index) - set(info.get("quarantined") or {})
    new = sorted(now - set(known))
    gone = sorted(set(known) - now)
    health["behind"] = {"new": len(new), "deleted": len(gone), "examples": (new + gone)[:5],
                        "note": "files the tree has that the index lacks, and the reverse (changed files are "
                                "re-checked by their content hash at the next update)"}
    if new or gone:
        problems.append(f"the index is behind the tree ({len(new)} new, {len(gone)} deleted files): "
                        "run `codesift index`")
    for lang, err in (info.get("grammar_errors") or {}).items():
        problems.append(f"{err['files']} {lang} files are indexed as line windows: the grammar failed to load "
                        f"({err['error']})")
    problems += _bulk_problems(health, per_file)
    as_windows = info.get("text_windows")
    if as_windows:
        files = f"{as_windows['files']} code file{'s are' if as_windows['files'] > 1 else ' is'}"
        problems.append(f"{files} indexed as text windows, without definitions or usages "
                        f"({', '.join(as_windows['paths'][:3])}): over the parse limit, definitions on minified "
                        "lines, or a parse that found nothing")
    if str(info.get("reranker", "")).startswith("unavailable"):
        problems.append(f"results keep the pipeline's order: the learned re-ranker is {info['reranker']}")
    if info.get("quarantined"):
        q = info["quarantined"]
        problems.append(f"{len(q)} files are quarantined after failing to parse {QUARANTINE_AFTER} times in a row "
                        f"({', '.join(list(q)[:3])}); they are retried when they change")
    if info.get("embedding_status") != "ok":
        problems.append(f"keyword search only: {info.get('embedding_reason')}; fix: {info.get('embedding_fix')}")
    elif int(info.get("embedded") or 0) < int(info.get("chunks") or 0):
        problems.append(f"semantic side incomplete: {info.get('embedding')}")
    health["problems"] = problems
    return health


def _bulk_problems(health: dict[str, object], per_file: list[tuple[str, int, int]]) -> list[str]:
    """Name the files that dominate the chunks (``search.coverage.dominating``): they dominate the embedding
    time, are embedded last, and hybrid search does not wait for them. Sets ``health["dominant_files"]``."""
    total = sum(n for _, n, _ in per_file)
    embedded = {path: e for path, _, e in per_file}
    found = dominating({path: n for path, n, _ in per_file})
    health["dominant_files"] = [{"path": path, "chunks": n, "share": round(n / total, 4), "embedded": embedded[path]}
                                for path, n in found]
    return [f"{path} holds {share(n / total)} of the chunks ({n:,} of {total:,}), and so most of the embedding "
            "time: it is embedded last and hybrid search does not wait for it; if it is generated, leave it out "
            "(`ignore` in codesift.toml or .codesiftignore)" for path, n in found]


def doctor(root: str | Path, *, config: Config | None = None, time_model: bool = True,
           config_overrides: Mapping[str, object] | None = None) -> dict[str, object]:
    """The dry run plus ``health`` (the existing index, if any) in one report."""
    root_path = Path(root).expanduser()
    report = dry_run(root_path, config=config, time_model=time_model, config_overrides=config_overrides)
    resolved = Path(str(report["root"]))
    config = config or load_config(resolved, overrides=config_overrides)
    report["dry_run"] = False
    report["health"] = index_health(resolved, config, list(report["indexed"]["paths"]))  # type: ignore[index]
    return report
