"""Renderers for search_commits and get_commit: Markdown for agents (bounded) and plain text for the CLI.

Same contract as ``tools/markdown.py``: each Markdown renderer returns :class:`Rendered`, the text plus the
payload without the text it shows (the commit body and the diff are in the Markdown only).
"""

from __future__ import annotations

from codesift.tools.markdown.common import DEFAULT_MAX_CHARS, MIN_MAX_CHARS, Payload, Rendered, bounded, clip, fence, inline, lean
from codesift.tools.payloads import Commit, CommitSearch

_COMMIT_TEXT = ("body", "diff")


def _paths(item: Payload, width: int = 6) -> str:
    paths = list(item.get("paths") or [])
    more = int(item.get("paths_total") or len(paths)) - min(width, len(paths))
    shown = ", ".join(paths[:width]) + (f" (+{more} more)" if more > 0 else "")
    return shown or "(no paths under the root: a merge or an empty commit)"


def _day(date: object) -> str:
    return str(date or "")[:10]


# -- search_commits --------------------------------------------------------------------------------
def render_commits(payload: CommitSearch, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
    """search_commits: a header (query, mode, filters, notes), then one block per commit."""
    results = payload.get("results") or []
    filters = "".join(f" · {k}: {inline(str(payload[k]))}" for k in ("path", "since") if payload.get(k))
    head = [f"Commits matching {inline(payload.get('query', ''))} · mode: {payload.get('mode')}{filters} · "
            f"{len(results)} of {int(payload.get('commits') or 0):,} indexed commits",
            *(f"> note: {n}" for n in payload.get("notes") or [])]
    blocks = [f"{i}. **{r['sha'][:12]}** {_day(r.get('date'))} · {r.get('author')} — {r.get('subject')} "
              f"(score {float(r.get('score') or 0):.2f})\n   files: {_paths(r)}"
              for i, r in enumerate(results, start=1)]
    tail = ([f"Next: get_commit(sha={results[0]['sha'][:12]!r}) shows the message, files and diff."]
            if results else ["No commits match. Try other words, a wider path, or no since= filter."])
    text, shown = bounded(head, blocks, max_chars, noun="commits", narrow="pass a lower limit or a path",
                           tail=tail, sep="\n")
    data = {**payload, "results": [lean(r) for r in results[:shown]], "truncated": shown < len(results)}
    return Rendered(text, data)


def commits_text(payload: CommitSearch) -> str:
    """search_commits for a terminal: ``sha  date  author  subject``, then the changed paths indented."""
    lines = []
    for r in payload.get("results") or []:
        lines.append(f"{r['sha'][:12]}  {_day(r.get('date'))}  {r.get('author')}  {r.get('subject')}  "
                     f"({float(r.get('score') or 0):.2f})")
        lines.append(f"    {_paths(r)}")
    return "\n".join(lines) if lines else "No commits match."


# -- get_commit ------------------------------------------------------------------------------------
def _files(payload: Commit) -> list[str]:
    out = []
    for f in payload.get("files") or []:
        old = f" (from {f['old_path']})" if f.get("old_path") else ""
        out.append(f"{f.get('status')}  {f.get('path')}{old}")
    return out


def _cut_line(payload: Commit) -> str:
    if not payload.get("diff_truncated"):
        return ""
    budget = payload.get("diff_budget") or {}
    return (f"… diff cut at {payload.get('diff_lines')} lines (budget {budget.get('lines')} lines / "
            f"{int(budget.get('bytes') or 0) // 1000} kB); the full diff: `git show {str(payload.get('sha'))[:12]}`, "
            "one file: `git show SHA -- PATH`")


def render_commit(payload: Commit, max_chars: int = DEFAULT_MAX_CHARS) -> Rendered:
    """get_commit: sha, author, date, message, changed files, then the diff fenced, cut to the budget."""
    head = [f"Commit **{payload.get('sha')}** · {payload.get('author')} <{payload.get('email')}> · "
            f"{payload.get('date')}" + ("" if payload.get("indexed", True) else " · not in the history index"),
            f"### {payload.get('subject')}", str(payload.get("body") or ""),
            f"**Files ({len(payload.get('files') or [])}):**\n" + "\n".join(f"- {f}" for f in _files(payload))]
    cut = _cut_line(payload)
    tail = [cut] if cut else []
    tail.append("Next: get_code_context(file_path=…) reads a changed file as it is now; "
                "search_commits(query, path=…) finds related commits.")
    diff = fence(str(payload.get("diff") or "(no diff under the indexed root)"), "diff")
    budget = max(max_chars, MIN_MAX_CHARS)
    text, _ = bounded(head, [diff], budget, tail=tail)
    whole = diff in text
    if not whole:  # the budget cut the diff: say so, and how to see more
        tail.insert(0, f"… diff cut to max_chars={budget:,}: call again with a larger max_chars")
        text, _ = bounded(head, [diff], budget, tail=tail)
    if len(text) > budget:  # a message longer than the budget: the answer itself is cut
        text = clip(text, budget)
    data = {k: v for k, v in payload.items() if k not in _COMMIT_TEXT}
    data["diff_shown"] = "whole" if whole and not payload.get("diff_truncated") else "cut"
    return Rendered(text, data)


def commit_text(payload: Commit) -> str:
    """get_commit for a terminal, like ``git show --name-status``, then the (cut) diff."""
    lines = [f"commit {payload.get('sha')}", f"Author: {payload.get('author')} <{payload.get('email')}>",
             f"Date:   {payload.get('date')}", "", f"    {payload.get('subject')}"]
    if payload.get("body"):
        lines += ["", *(f"    {line}" for line in str(payload["body"]).splitlines())]
    lines += ["", *_files(payload), ""]
    if payload.get("diff"):
        lines.append(str(payload["diff"]))
    if payload.get("diff_truncated"):
        lines.append(_cut_line(payload).replace("`", ""))
    return "\n".join(lines)
