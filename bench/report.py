"""The kept bench results (``bench/results.jsonl``) as tables.

    python bench/report.py                                # the latest run of each script, against the one before
    python bench/report.py --script quality [--metric MRR] [--last 8]   # one script's runs side by side

A script run with ``--record`` appends one line to the file (``common.record``): date, commit (``dirty`` when the
tracked files differed from it), script, arguments, machine and its headline numbers. Runs of one script with
other arguments measure something else (``--corpora requests``, another grid), so each table compares runs with
the same arguments only. Without ``--script``: per script and arguments, the latest run's numbers beside the
previous run's and the change. With ``--script NAME`` (a path under bench/, ``quality/quality.py``, or its name,
``quality``): one column per run, oldest first, the last ``--last`` of them; ``--metric TEXT`` keeps the metrics
whose name holds TEXT. Standard library only.
"""

from __future__ import annotations

import argparse
from pathlib import Path

import common


def fmt(value: object, sign: bool = False) -> str:
    """A number in four significant digits (whole above 1000); anything else as it is."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return "-" if value is None else str(value)
    if isinstance(value, int) and not sign:
        return f"{value:,}"
    if abs(value) >= 1000:
        return f"{value:+,.0f}" if sign else f"{value:,.0f}"
    return f"{value:+.4g}" if sign else f"{value:.4g}"


def run_label(run: dict) -> str:
    """Date (to the minute) and commit of a run, ``*`` after a dirty one."""
    return f"{run['date'][:16].replace('T', ' ')} {run['commit']}{'*' if run.get('dirty') else ''}"


def matches(script: str, name: str) -> bool:
    return name in (script, script.removesuffix(".py"), Path(script).stem)


def wanted(metric: str, text: str | None) -> bool:
    return not text or text.lower() in metric.lower()


def latest(runs: list[dict], text: str | None) -> None:
    """Per script and arguments: the latest run against the one before."""
    groups: dict[tuple[str, str], list[dict]] = {}
    for run in runs:
        groups.setdefault((run["script"], run.get("args", "")), []).append(run)
    for (script, args), group in sorted(groups.items()):
        last, prev = group[-1], (group[-2] if len(group) > 1 else None)
        print(f"\n## {script}{f' `{args}`' if args else ''}\n")
        print(f"{run_label(last)} on {last.get('machine', '?')}; {len(group)} run{'s' if len(group) > 1 else ''}"
              + (f", previous {run_label(prev)}" if prev else "") + "\n")
        print("| metric | value | previous | change |")
        print("|---|---:|---:|---:|")
        for metric, value in last["results"].items():
            if not wanted(metric, text):
                continue
            before = prev["results"].get(metric) if prev else None
            change = (value - before if isinstance(value, int | float) and isinstance(before, int | float)
                      and not isinstance(value, bool) else None)
            shown = fmt(change, sign=True) if change is not None else "-"
            print(f"| {metric} | {fmt(value)} | {fmt(before)} | {shown} |")


def history(runs: list[dict], name: str, text: str | None, last: int) -> None:
    """One script's runs, one column each, per set of arguments."""
    mine = [r for r in runs if matches(r["script"], name)]
    if not mine:
        known = ", ".join(sorted({r["script"] for r in runs})) or "none"
        raise SystemExit(f"no recorded run of {name!r} (recorded: {known})")
    groups: dict[str, list[dict]] = {}
    for run in mine:
        groups.setdefault(run.get("args", ""), []).append(run)
    for args, group in groups.items():
        group = group[-last:]
        metrics = list(dict.fromkeys(m for r in group for m in r["results"] if wanted(m, text)))
        print(f"\n## {mine[0]['script']}{f' `{args}`' if args else ''}: {len(group)} run{'s' * (len(group) != 1)}\n")
        print("| metric | " + " | ".join(run_label(r) for r in group) + " |")
        print("|---|" + "---:|" * len(group))
        for metric in metrics:
            print(f"| {metric} | " + " | ".join(fmt(r["results"].get(metric)) for r in group) + " |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--script", help="one script's history (quality/quality.py, or quality)")
    ap.add_argument("--metric", help="only the metrics whose name holds this text")
    ap.add_argument("--last", type=int, default=8, help="with --script: the last N runs (default 8)")
    ap.add_argument("--file", type=Path, default=common.RESULTS, help="the results file (default bench/results.jsonl)")
    args = ap.parse_args()
    runs = common.read_results(args.file)
    if not runs:
        print(f"{args.file}: no run recorded yet (run a bench script with --record)")
        return
    scripts = len({r["script"] for r in runs})
    print(f"# {args.file.name}: {len(runs)} run{'s' * (len(runs) != 1)} of {scripts} script{'s' * (scripts != 1)}")
    if args.script:
        history(runs, args.script, args.metric, args.last)
    else:
        latest(runs, args.metric)
    if any(r.get("dirty") for r in runs):
        print("\n`*` after a commit: measured on a checkout whose tracked files differed from it")


if __name__ == "__main__":
    main()
