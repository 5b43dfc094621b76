"""Human output for the terminal (rich). JSON output lives in the CLI itself."""

from __future__ import annotations

import datetime as dt
import time
from collections.abc import Callable

from rich.console import Console
from rich.markup import escape
from rich.syntax import Syntax
from rich.table import Table

from codesift.config.rank import RankSettings
from codesift.rank.pipeline import STAGES
from codesift.search.coverage import share
from codesift.search.run import SearchResponse, SearchResult

PIPE_WIDTH = 100_000  # piped output: wide enough that no real line is wrapped or cut
SNIPPET_WIDTH = 120  # on a terminal, code is cropped here (or at the terminal's width) to stay readable


def output_console(*, stderr: bool = False) -> Console:
    """A Console for stdout (or stderr): the terminal's width on a TTY; piped or redirected, never a wrap
    or a cut (rich would otherwise assume 80 columns and crop code without an ellipsis)."""
    console = Console(stderr=stderr)
    if console.is_terminal:
        return console
    return Console(stderr=stderr, width=PIPE_WIDTH, soft_wrap=True)


def print_results(response: SearchResponse, console: Console | None = None, *, explain: bool = False,
                  stages: str = "") -> None:
    """Results grouped by file: ``path:start-end``, kind, qualified name, score and a snippet; with ``explain``,
    ``stages`` (the ranking pipeline, :func:`stages_line`) first."""
    console = console or output_console()
    code_width = min(console.width, SNIPPET_WIDTH) if console.is_terminal else console.width
    if explain and stages:
        console.print(f"[dim]{escape(stages)}[/]")
    for note in response.notes:
        console.print(f"[yellow]note:[/] {escape(note)}")
    if not response.results:
        console.print("no results")
        return
    current = None
    for r in response.results:
        if r.path != current:
            console.print(f"\n[bold cyan]{escape(r.path)}[/]")
            current = r.path
        console.print(
            f"  [bold]{escape(r.title)}[/] [dim]{r.kind}[/]  "
            f"{escape(r.path)}:{r.definition_start_line}-{r.definition_end_line}"  # its own lines, not the passage's
            f"  [green]{r.score:.2f} {r.label}[/]"
        )
        if r.doc:
            console.print(f"    [italic]{escape(r.doc)}[/]")
        if r.deprecated is not None:
            console.print(f"    [yellow]deprecated[/]{escape(': ' + r.deprecated) if r.deprecated else ''}")
        if r.also_defined:
            console.print(f"    [dim]also defined: {escape('; '.join(r.also_defined))}[/]")
        if explain:
            console.print(f"    [dim]{escape(explain_line(r))}[/]")
        lexer = r.language if r.language not in {"text", "window"} else "text"
        console.print(Syntax(r.snippet, lexer, line_numbers=True, start_line=r.snippet_line or r.definition_start_line,
                             theme="ansi_dark", background_color="default"), width=code_width)


def print_status(info: dict, console: Console | None = None) -> None:
    """The index status as a two-column table."""
    console = console or output_console()
    table = Table(show_header=False, box=None)
    last = info.get("last_update")
    rows = [
        ("root", info["root"]),
        ("files", str(info["files"])),
        ("symbols", f"{info['symbols']} ({info['chunks']} chunks)"),
        ("languages", ", ".join(f"{k} {v}" for k, v in info["languages"].items()) or "-"),
        ("model", f"{info['model'] or '-'} (dim {info['dim'] or '-'})"
                  + (f", queries by {info['query_model']}" if info.get("query_model") else "")),
        ("embedding", info.get("embedding") or f"{info['embedding_status']}, coverage {share(info['coverage'])}"),
        ("skipped", ", ".join(f"{n} {r}" for r, n in info["skipped"].items()) or "none"),
        ("windows", _windows_text(info.get("windows") or {})),
        ("re-ranker", info.get("reranker", "-")),
        ("last update", dt.datetime.fromtimestamp(last).isoformat(timespec="seconds") if last else "never"),
    ]
    if info.get("embedding_reason"):
        rows.append(("why", f"{info['embedding_reason']}; fix: {info.get('embedding_fix')}"))
    if info.get("grammar_errors"):
        rows.append(("grammars", grammar_errors_text(info["grammar_errors"])))
    if info.get("text_windows"):
        rows.append(("as windows", text_windows_text(info["text_windows"])))
    for part, record in (info.get("repaired") or {}).items():  # parts rebuilt after damage, or still damaged
        done = record.get("repaired") or f"damaged: {record.get('damaged')}"
        rows.append(("repaired", f"{part}: {done}"))
    if not console.is_terminal:  # piped: plain aligned lines, no cell padding to trail every row
        for key, value in rows:
            console.print(f"{key:<12} {value}", markup=False, highlight=False)
        return
    for key, value in rows:
        table.add_row(f"[bold]{key}[/]", escape(value))
    console.print(table)


def _windows_text(windows: dict) -> str:
    """``1,204 of 1,310 embedded``: the long chunks' further vectors (store/windows.py)."""
    total = int(windows.get("total", 0))
    if not total:
        return "none"
    return f"{int(windows.get('embedded', 0)):,} of {total:,} embedded (long chunks' further vectors)"


def text_windows_text(windows: dict) -> str:
    """``2 code files indexed as text windows, without definitions (a.min.js, big.py)``."""
    paths, n = list(windows.get("paths") or []), int(windows.get("files") or 0)
    more = f", +{n - 3} more" if n > 3 else ""
    return f"{n} code file(s) indexed as text windows, without definitions ({', '.join(paths[:3])}{more})"


def grammar_errors_text(errors: dict) -> str:
    """``python: 12 files indexed as line windows (grammar failed: ImportError: ...)``, per language."""
    return "; ".join(f"{lang}: {e['files']} files indexed as line windows (grammar failed: {e['error']})"
                     for lang, e in errors.items())


def warnings_line(counts: dict[str, int], files: dict[str, str], per_reason: int = 3) -> str:
    """``warnings: 1 invalid_utf8 (src/bad.py), 5 parse_failed (a.py, b.py, c.py, +2 more)``: counts
    alone left the user grepping for the file."""
    parts = []
    for reason, n in sorted(counts.items()):
        paths = sorted(p for p, r in files.items() if r == reason)
        more = f", +{len(paths) - per_reason} more" if len(paths) > per_reason else ""
        shown = ", ".join(paths[:per_reason]) + more
        parts.append(f"{n} {reason} ({shown})" if paths else f"{n} {reason}")
    return "warnings: " + ", ".join(parts)


MIN_RATE_SECONDS = 1.0  # a rate over a shorter span is noise ("106,000,000.0 files/s")


class RateMeter:
    """Items per second for a progress line, per stage, measured from the stage's first report.

    Blank until ``MIN_RATE_SECONDS`` have passed since that report and items were done since: the first
    report often arrives with a whole batch already done, microseconds after the stage was first seen.
    """

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self._first: dict[str, tuple[float, int]] = {}

    def text(self, stage: str, done: int, unit: str) -> str:
        now = self.clock()
        t0, done0 = self._first.setdefault(stage, (now, done))
        elapsed, items = now - t0, done - done0
        if elapsed < MIN_RATE_SECONDS or items <= 0:
            return ""
        rate = items / elapsed
        return f"{rate:,.0f} {unit}" if rate >= 100 else f"{rate:.1f} {unit}"


def stages_line(settings: RankSettings) -> str:
    """The ranking pipeline as these settings run it, in order: ``ranking: name_match → … (off: recency, …)``."""
    on = [s.name for s in STAGES if s.enabled(settings)]
    off = [s.name for s in STAGES if not s.enabled(settings)]
    return "ranking: " + " → ".join(on) + (f" (off: {', '.join(off)})" if off else "")


def explain_line(r: SearchResult) -> str:
    """One line saying why a result ranked where it did."""
    e = dict(r.explain)
    parts = [f"shape={e.pop('shape', '?')}", f"keyword_rank={r.keyword_rank or '-'}",
             f"vector_rank={r.vector_rank or '-'}",
             f"weights={e.pop('w_keyword', 0):.2f}/{e.pop('w_vector', 0):.2f}", f"rrf={e.pop('rrf', 0):.4f}"]
    parts += [f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}" for k, v in e.items()]
    return " ".join(parts)
