"""CLI of the checks before and around indexing (added to :data:`codesift.cli.app.main` by its command list):
``codesift doctor`` and the body of ``codesift index --dry-run``."""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable
from pathlib import Path

import click

from codesift.cli.common import config_overrides, fail


def _run(fn: Callable[..., dict], target: Path, **kwargs: object) -> dict:  # fn: dry_run or doctor
    from codesift.config.settings import ConfigError

    try:
        return fn(target, **kwargs)
    except (FileNotFoundError, NotADirectoryError, ConfigError) as exc:
        fail(str(exc))
    except PermissionError as exc:
        fail(f"permission denied: {exc.filename or exc}")
    raise AssertionError("unreachable")  # fail exits


def _emit(report: dict, as_json: bool, list_all: bool) -> None:
    if as_json:
        click.echo(json.dumps(report, indent=1))
    else:
        click.echo(render_report(report, list_all=list_all))


def dry_run_command(target: Path, *, as_json: bool, time_model: bool, quiet: bool = False,
                    list_all: bool = False) -> None:
    """``codesift index --dry-run``: what would be indexed and skipped, and the estimates; writes nothing."""
    from codesift.doctor.dry_run import dry_run

    if not (quiet or as_json) and time_model:
        click.echo("timing the embedding model on a few sample chunks …", err=True)
    _emit(_run(dry_run, target, time_model=time_model, config_overrides=config_overrides()), as_json, list_all)


@click.command()
@click.argument("path", required=False, type=click.Path())
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON ({indexed, skipped, estimate, "
              "grammars, warnings, health}).")
@click.option("--no-model", is_flag=True, help="Don't load and time the embedding model.")
@click.option("--list", "list_all", is_flag=True, help="List every file that would be indexed and every skip.")
def doctor(path: str | None, as_json: bool, no_model: bool, list_all: bool) -> None:
    """Check PATH (default: .) before and around indexing: what would be indexed and skipped and why, estimates
    of chunks and embedding time, warnings, and the health of the existing index. Writes nothing."""
    from codesift.doctor.health import doctor as run_doctor

    target = Path(path or ".")
    if not as_json and not no_model:
        click.echo("timing the embedding model on a few sample chunks …", err=True)
    _emit(_run(run_doctor, target, time_model=not no_model, config_overrides=config_overrides()), as_json, list_all)


# -- text rendering ---------------------------------------------------------------------------------
def _size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1024 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} GB"


def _n(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def _duration(seconds: float | None) -> str:
    if seconds is None:
        return "?"
    if seconds < 1:
        return "<1 s"
    if seconds < 90:
        return f"{seconds:.0f} s"
    if seconds < 5400:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def _examples(paths: list[str], n: int = 4) -> str:
    more = f", +{len(paths) - n:,} more" if len(paths) > n else ""
    return ", ".join(paths[:n]) + more


def _embedding_line(emb: dict, chunks: int) -> str:
    status = emb.get("status")
    if status == "timed":
        cached = float(emb.get("cached_share") or 0)
        cache = (f"; {cached:.0%} of the sample already in this machine's vector cache, "
                 f"~{_duration(emb.get('seconds_without_cache'))} without it" if cached >= 0.01 else "")
        took = _duration(emb.get("seconds"))
        return (f"{'' if took.startswith('<') else '~'}{took} for ~{chunks:,} chunks "
                f"at {emb['chunks_per_second']} chunks/s "
                f"({emb.get('model')}, timed on {emb['sample_chunks']} sample chunks in {emb['sample_seconds']} s, "
                f"model load {emb['load_seconds']} s{cache})")
    if status == "unavailable":
        return f"unavailable: {emb.get('reason')}; fix: {emb.get('fix')}"
    return f"{status}: {emb.get('note')}"


def render_report(report: dict, *, list_all: bool = False) -> str:
    """The dry-run / doctor report as plain text: indexed, skipped, estimate, grammars, warnings, health."""
    ind, skp, est = report["indexed"], report["skipped"], report["estimate"]
    title = "codesift doctor" if "health" in report else "codesift index --dry-run (nothing written)"
    out = [f"{title}: {report['root']} ({report['listing']} listing)", ""]
    out.append(f"would index {_n(ind['files'], 'file')} ({_size(ind['bytes'])})")
    per_lang = est["by_language"]
    for lang, v in ind["by_language"].items():
        e = per_lang.get(lang, {})
        out.append(f"  {lang:<26} {_n(v['files'], 'file'):>13} {_size(v['bytes']):>10}   "
                   f"~{_n(e.get('chunks', 0), 'chunk')}")
    unk = ind["unknown_language"]
    if unk["files"]:
        out.append(f"  ({_n(unk['files'], 'file')} of no known language: indexed as plain-text windows: "
                   f"{_examples(unk['examples'])})")
    if ind["included"]:
        out.append(f"  brought back by include patterns: {len(ind['included'])} ({_examples(ind['included'])})")
    if list_all:
        out += [f"    {p}" for p in ind["paths"]]
    out += ["", f"would skip {skp['count']:,} ({_n(skp['files'], 'file')}, {_n(skp['folders'], 'folder')})"]
    for reason, v in skp["by_reason"].items():
        counts = " + ".join(x for x in (_n(v["files"], "file") if v["files"] else "",
                                        _n(v["folders"], "folder") if v["folders"] else "") if x)
        out.append(f"  {reason:<15} {counts:<24} {v['rule']}")
        if list_all:
            out += [f"    {p}" for p in v["paths"]]
        else:
            out.append(f"  {'':<15} e.g. {_examples(v['paths'])}")
    ix, emb = est["index"], est["embedding"]
    workers = f"{ix['workers']} worker processes" if ix["workers"] > 1 else "one process"
    out += ["", "estimate",
            f"  chunks     ~{est['chunks']:,} ({est['method']})",
            f"  indexing   ~{_duration(ix['seconds'])} to parse and store, {workers} on {ix['cpus']} cores "
            f"(parse {ix['parse_cpu_seconds']} s CPU, store {ix['store_seconds']} s; "
            f"discovery took {est['discover_seconds']} s)",
            *([f"             the machine is busy (load {ix['load_average']} on {ix['cpus']} cores): expect longer"]
              if ix.get("load_average") and ix["load_average"] > ix["cpus"] else []),
            f"  embedding  {_embedding_line(emb, int(est['chunks']))}"]
    bad = {k: v for k, v in report["grammars"].items() if v != "ok"}
    ok = [k for k, v in report["grammars"].items() if v == "ok"]
    out.append(f"  grammars   loaded: {', '.join(ok) or '-'}" + "".join(f"; {k}: FAILED ({v})" for k, v in bad.items()))
    if report["warnings"]:
        out += ["", "warnings"] + [f"  ! {w}" for w in report["warnings"]]
    if "health" in report:
        out += ["", *_health_lines(report["health"])]
    return "\n".join(out)


def _health_lines(h: dict) -> list[str]:
    if not h.get("exists"):
        if h.get("problems"):
            return ["index health", *[f"  ! {p}" for p in h["problems"]]]
        return [f"index health: {h.get('note')}"]
    out = ["index health", f"  index      {h['index_dir']} (schema {h['schema']['index']}, "
                           f"this codesift needs {h['schema']['needed']})"]
    if "files" in h:
        last = h.get("last_update")
        when = dt.datetime.fromtimestamp(last).isoformat(timespec="seconds") if last else "never"
        out += [f"  holds      {h['files']:,} files, {h['symbols']:,} symbols ({h['chunks']:,} chunks); "
                f"last update {when}",
                f"  model      {h.get('model') or '-'} (dim {h.get('dim') or '-'})",
                f"  embedding  {h.get('embedding')}",
                f"  quarantine {len(h.get('quarantined') or {})} files",
                "  grammars   " + ("; ".join(f"{k}: {v['files']} files as line windows ({v['error']})"
                                          for k, v in (h.get("grammar_errors") or {}).items()) or "no failures"),
                f"  behind     {h['behind']['new']} new, {h['behind']['deleted']} deleted files"]
    if h.get("problems"):
        out += [f"  ! {p}" for p in h["problems"]]
    else:
        out.append("  no problems found")
    return out
