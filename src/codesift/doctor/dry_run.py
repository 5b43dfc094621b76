"""What ``codesift index`` would do, before it does it: ``index --dry-run`` and ``doctor``.

:func:`dry_run` lists the files discovery keeps and drops (with the rule for each: ``discover`` gives every
skip a reason and, with ``explain``, names the ignore rule too), counts them per language, estimates the
chunks and the time to parse and embed them, and warns about outcomes that look wrong. It writes nothing
under the tree: no index is opened or created.

Estimates (chunks, index time, embedding time) are measured on a sample of the tree itself, on this
machine: see :mod:`codesift.doctor.estimate`.

:func:`doctor` (in :mod:`codesift.doctor.health`) adds the existing index's health.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Mapping
from pathlib import Path

from codesift.config.settings import INDEX_DIR_NAME, Config, load_config
from codesift.indexing.discover import SOURCE_SIZE_FACTOR, Discovery, discover, size_limit
from codesift.config.include import IncludeRules
from codesift.languages import GRAMMAR_LANGUAGES, language_for

__all__ = ["dry_run", "RULES", "TEXT_KINDS"]

EXAMPLES = 5  # paths shown per rule in the text report
SKIPPED_SHARE_WARN = 0.5  # warn when codesift's own rules drop more than this share of the files
UNKNOWN = "text (unknown extension)"

# Not source code: a tree's main language is never one of these.
TEXT_KINDS = frozenset({
    "markdown", "rst", "asciidoc", "text", "latex", "yaml", "toml", "json", "ini", "xml", "html", "css",
    "sql", "makefile", "cmake", "dockerfile", UNKNOWN,
})

RULES: dict[str, str] = {
    "gitignore": "ignored by git (.gitignore, .git/info/exclude, the global excludes file)",
    "codesiftignore": "ignored by .codesiftignore or `ignore` in codesift.toml",
    "vendored": "vendored or build folder (node_modules, vendor, dist, build, .venv, target, ...)",
    "generated": "generated code or translation catalogs (_pb2.py, .pb.go, .generated., .po)",
    "minified": "minified bundle or source map (.min.js, .bundle.js, .map)",
    "compiled": "JavaScript or .d.ts compiled from a TypeScript source the tree also holds, or the CommonJS twin "
                "of an ES-module build (lib/ beside es6/)",
    "lockfile": "dependency lockfile",
    "binary": "binary (by extension, or a NUL byte in the first 8 KiB)",
    "too_large": f"over max_file_size (source in a parsed language: over {SOURCE_SIZE_FACTOR} × max_file_size)",
    "nested_repo": "nested git repository or submodule",
    "symlink_outside_root": "symlink pointing outside the root",
    "symlink_duplicate": "symlinked folder (its target is indexed under its real path)",
    "symlink_loop": "symlink loop",
    "broken_symlink": "broken symlink",
    "not_regular": "not a regular file (FIFO, socket, device)",
    "unreadable": "cannot be read (permissions)",
    "undecodable_name": "file name is not valid UTF-8",
}


def language_of(path: str) -> str:
    """The language a file is indexed as; files of no known language become ``UNKNOWN`` (plain text)."""
    return language_for(path) or UNKNOWN


def _mib(n: float) -> str:
    return f"{n / 1_048_576:.1f} MiB"


def _discover(root: Path, config: Config) -> Discovery:
    from codesift.indexing.indexer import index_dir_ignore

    return discover(root, max_file_size=config.max_file_size,
                    extra_ignores=(*config.ignore, *index_dir_ignore(root, config)),
                    index_dir_name=INDEX_DIR_NAME, include=config.include, explain=True)


def _indexed(found: Discovery) -> dict[str, object]:
    by_lang: dict[str, dict[str, int]] = {}
    for f in found.files:
        entry = by_lang.setdefault(language_of(f.path), {"files": 0, "bytes": 0})
        entry["files"] += 1
        entry["bytes"] += f.size
    by_lang = dict(sorted(by_lang.items(), key=lambda kv: (-kv[1]["files"], kv[0])))
    unknown = [f.path for f in found.files if language_for(f.path) is None]
    return {
        "files": len(found.files),
        "bytes": sum(f.size for f in found.files),
        "by_language": by_lang,
        "unknown_language": {"files": len(unknown), "examples": unknown[:EXAMPLES],
                             "note": "no known language: indexed as plain-text line windows"},
        "included": list(found.included),
        "paths": [f.path for f in found.files],
    }


def _skipped(found: Discovery) -> dict[str, object]:
    merged = {**found.ignored, **found.skipped}
    by_reason: dict[str, dict[str, object]] = {}
    for path, reason in sorted(merged.items()):
        entry = by_reason.setdefault(reason, {"count": 0, "files": 0, "folders": 0, "paths": []})
        entry["count"] += 1  # type: ignore[operator]
        entry["folders" if path.endswith("/") else "files"] += 1  # type: ignore[operator]
        entry["paths"].append(path)  # type: ignore[attr-defined]
    for reason, entry in by_reason.items():
        entry["rule"] = RULES.get(reason, reason)
    by_reason = dict(sorted(by_reason.items(),
                            key=lambda kv: (-int(kv[1]["count"]), kv[0])))  # type: ignore[call-overload]
    return {
        "count": len(merged),
        "files": sum(1 for p in merged if not p.endswith("/")),
        "folders": sum(1 for p in merged if p.endswith("/")),
        "by_reason": by_reason,
    }


def _grammars(languages: list[str]) -> dict[str, str]:
    """language -> "ok" or why its grammar (or a parser for it) does not load, for the given languages."""
    from codesift.parse import grammars

    out = {}
    for lang in languages:
        if lang in GRAMMAR_LANGUAGES:
            out[lang] = "ok" if grammars.get_parser(lang) is not None else (grammars.failure(lang) or "did not load")
    return out


def _warnings(found: Discovery, report: dict, config: Config) -> list[str]:
    """Outcomes that look wrong: the main language not indexed, most files skipped, a grammar that does
    not load, code over the size limit, include patterns that bring nothing back, no embedder."""
    out: list[str] = []
    indexed = report["indexed"]
    seen = Counter(language_of(f.path) for f in found.files)
    dropped: dict[str, Counter] = {}
    for path, reason in {**found.ignored, **found.skipped}.items():
        # Bundles, generated code and binaries are not the tree's own code: they don't make its main language.
        if not path.endswith("/") and reason not in ("minified", "generated", "compiled", "lockfile", "binary"):
            lang = language_of(path)
            seen[lang] += 1
            dropped.setdefault(lang, Counter())[reason] += 1
    code = [(n, lang) for lang, n in seen.items() if lang not in TEXT_KINDS]
    if not found.files:
        out.append("nothing would be indexed: check the path, .gitignore, .codesiftignore and `ignore`")
    if code:
        n, main = max(code)
        kept = indexed["by_language"].get(main, {}).get("files", 0)
        why = ", ".join(f"{c} {r}" for r, c in dropped.get(main, Counter()).most_common(3))
        if kept == 0:
            out.append(f"0 of {n} {main} files (the tree's main language) would be indexed ({why})")
        elif kept < n / 2:
            out.append(f"only {kept} of {n} {main} files (the tree's main language) would be indexed ({why})")
    # Compiled copies of sources that are indexed lose nothing: they do not count as skipped code.
    own = sum(1 for p, r in found.skipped.items() if not p.endswith("/") and r != "compiled")
    total = own + len(found.files)
    if own >= 20 and own > SKIPPED_SHARE_WARN * total:
        out.append(f"{own} of {total} files ({own * 100 // total}%) are skipped by codesift's rules; see `skipped`")
    for lang, state in report["grammars"].items():
        if state != "ok":
            n = indexed["by_language"].get(lang, {}).get("files", 0)
            out.append(f"the {lang} grammar does not load ({state}): its {n} files would be indexed as line "
                       "windows, without symbols or usages")
    large = [p for p, r in found.skipped.items() if r == "too_large" and language_of(p) not in TEXT_KINDS]
    if large:
        limit = _mib(size_limit(large[0], config.max_file_size))
        out.append(f"{len(large)} code files over the size limit ({limit} for {large[0]}) are skipped "
                   f"({', '.join(large[:3])}); raise max_file_size in codesift.toml to index them")
    kept_paths = indexed["paths"]
    for pattern in config.include:
        rules = IncludeRules([pattern])
        if not pattern.lstrip().startswith("!") and not any(rules.matches(p) for p in kept_paths):
            out.append(f"include pattern {pattern!r} brings back no file (nothing matches it, or what matches is "
                       "ignored by .codesiftignore/`ignore`, binary or too large)")
    emb = report["estimate"]["embedding"]
    if emb.get("status") == "unavailable":
        out.append(f"the embedder cannot be used ({emb.get('reason')}): search would be keyword-only; "
                   f"fix: {emb.get('fix')}")
    return out


def dry_run(root: str | Path, *, config: Config | None = None, time_model: bool = True,
            config_overrides: Mapping[str, object] | None = None) -> dict[str, object]:
    """What ``codesift index root`` would index, skip and cost; writes nothing under ``root``.

    Returns ``{indexed, skipped, estimate, grammars, warnings, ...}`` (the JSON of ``index --dry-run``).
    Raises FileNotFoundError / NotADirectoryError for a bad root and ConfigError for a bad codesift.toml.
    Without ``config``, it is loaded with ``config_overrides`` (the CLI's global options) winning.
    """
    root_path = Path(root).expanduser()
    if not root_path.exists():
        raise FileNotFoundError(f"no such directory: {root}")
    if not root_path.is_dir():
        raise NotADirectoryError(f"not a directory: {root}")
    root_path = root_path.resolve()
    config = config or load_config(root_path, overrides=config_overrides)
    t0 = time.perf_counter()
    found = _discover(root_path, config)
    discover_s = time.perf_counter() - t0
    indexed = _indexed(found)
    from codesift.doctor.estimate import estimate

    estimated = estimate(found.files, language_of, config, time_model=time_model)
    report: dict[str, object] = {
        "root": str(root_path),
        "dry_run": True,
        "listing": found.mode,
        "config": {"max_file_size": config.max_file_size, "ignore": list(config.ignore),
                   "include": list(config.include)},
        "indexed": indexed,
        "skipped": _skipped(found),
        "estimate": {**estimated, "discover_seconds": round(discover_s, 2)},
        "grammars": _grammars(list(indexed["by_language"])),  # type: ignore[call-overload]
    }
    report["warnings"] = _warnings(found, report, config)
    return report
