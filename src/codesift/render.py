"""Human output for the terminal (rich). JSON output lives in the CLI itself."""

from __future__ import annotations

import datetime as dt

from rich.console import Console
from rich.markup import escape
from rich.syntax import Syntax
from rich.table import Table

from .search import SearchResponse


def print_results(response: SearchResponse, console: Console | None = None, *, explain: bool = False) -> None:
    """Results grouped by file: ``path:start-end``, kind, qualified name, score and a snippet."""
    console = console or Console()
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
            f"  [bold]{escape(r.qualified_name)}[/] [dim]{r.kind}[/]  {escape(r.path)}:{r.start_line}-{r.end_line}"
            f"  [green]{r.score:.2f} {r.label}[/]"
        )
        if explain:
            console.print(f"    [dim]{escape(explain_line(r))}[/]")
        lexer = r.language if r.language not in {"text", "window"} else "text"
        console.print(Syntax(r.snippet, lexer, line_numbers=True, start_line=r.start_line,
                             theme="ansi_dark", background_color="default"), width=min(console.width, 120))


def print_status(info: dict, console: Console | None = None) -> None:
    """The index status as a two-column table."""
    console = console or Console()
    table = Table(show_header=False, box=None)
    last = info.get("last_update")
    rows = [
        ("root", info["root"]),
        ("files", str(info["files"])),
        ("symbols", f"{info['symbols']} ({info['chunks']} chunks)"),
        ("languages", ", ".join(f"{k} {v}" for k, v in info["languages"].items()) or "-"),
        ("model", f"{info['model'] or '-'} (dim {info['dim'] or '-'})"),
        ("embedding", f"{info['embedding_status']}, coverage {info['coverage']:.0%}"),
        ("skipped", ", ".join(f"{n} {r}" for r, n in info["skipped"].items()) or "none"),
        ("last update", dt.datetime.fromtimestamp(last).isoformat(timespec="seconds") if last else "never"),
    ]
    if info.get("embedding_reason"):
        rows.append(("why", f"{info['embedding_reason']}; fix: {info.get('embedding_fix')}"))
    for key, value in rows:
        table.add_row(f"[bold]{key}[/]", escape(value))
    console.print(table)


def explain_line(r) -> str:  # noqa: ANN001 - SearchResult
    """One line saying why a result ranked where it did."""
    e = dict(r.explain)
    parts = [f"shape={e.pop('shape', '?')}", f"keyword_rank={r.keyword_rank or '-'}",
             f"vector_rank={r.vector_rank or '-'}",
             f"weights={e.pop('w_keyword', 0):.2f}/{e.pop('w_vector', 0):.2f}", f"rrf={e.pop('rrf', 0):.4f}"]
    parts += [f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}" for k, v in e.items()]
    return " ".join(parts)
