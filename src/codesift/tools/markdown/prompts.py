"""The text of the MCP prompts ``service_overview`` and ``system_design`` (data from
:mod:`codesift.tools.prompts`), bounded to ``max_chars``: the longest lists lose their last items first,
each cut list saying how many it left out and which tool shows them."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from codesift.tools.markdown.common import inline
from codesift.tools.payloads import ServiceOverview, SystemDesign

PROMPT_MAX_CHARS = 6_000

Payload = Mapping[str, Any]


class Section:
    """A heading, its item lines (cut from the end to fit) and what to call for the ones cut."""

    def __init__(self, title: str, lines: Sequence[str], more: str = "", *, intro: str = "") -> None:
        self.title, self.lines, self.more, self.intro = title, list(lines), more, intro
        self.total = len(self.lines)

    def text(self) -> str:
        out = [self.title] + ([self.intro] if self.intro else []) + self.lines
        left = self.total - len(self.lines)
        if left > 0:
            out.append(f"- … {left} more" + (f" ({self.more})" if self.more else ""))
        return "\n".join(out)


def fit(head: str, sections: list[Section], tail: str, max_chars: int) -> str:
    """``head``, the sections and ``tail`` joined, dropping the last lines of the longest section until the
    whole is at most ``max_chars`` (a heading without lines stays, with its ``… N more``)."""
    def join() -> str:
        return "\n\n".join([head, *(s.text() for s in sections if s.total), tail])

    text = join()
    while len(text) > max_chars:
        longest = max(reversed(sections), key=lambda s: len(s.lines), default=None)  # ties: the last first
        if longest is None or not longest.lines:
            return text[: max_chars - 1] + "…"
        longest.lines.pop()
        text = join()
    return text


def _n(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


def count_of(items: Sequence[Any]) -> str:
    """How many: ``200+`` when the list stopped at its cap (:data:`codesift.tools.prompts.MAX_ROUTES`)."""
    from codesift.tools.prompts import MAX_ROUTES

    return f"{MAX_ROUTES}+" if len(items) >= MAX_ROUTES else str(len(items))


def _languages(langs: Mapping[str, int], limit: int = 8) -> str:
    shown = ", ".join(f"{lang} {n:,}" for lang, n in list(langs.items())[:limit])
    return shown + (f", +{len(langs) - limit} more" if len(langs) > limit else "")


def _entry(e: Payload) -> str:
    where = f"`{e['path']}:{e['line']}`" if e["kind"] != "file" else f"`{e['path']}`"
    if e["kind"] == "file":
        return f"- {where} ({e['why']})"
    if e["kind"] == "module":
        return f"- {where} {e['why']}"
    sig = f" {inline(e['signature'])}" if e.get("signature") else ""
    return f"- {where} {e['name']} ({e['why']}){sig}"


def _module(m: Payload) -> str:
    names = ", ".join(f"{s['name']} ({s['kind']}, line {s['line']})" for s in m["symbols"])
    return f"- `{m['path']}`: {names}"


def _route(r: Payload) -> str:
    return f"- {inline(r['route'])} → {r['handler']} (`{r['path']}:{r['line']}`)"


def render_service_overview(payload: ServiceOverview, max_chars: int = PROMPT_MAX_CHARS) -> str:
    """The service_overview prompt: languages, folders, entry points, main modules, routes, what to do next."""
    scope = payload.get("scope")
    where = f"the folder `{scope}/` of {payload['root']}" if scope else f"the repository at {payload['root']}"
    head = (f"Give an overview of {where}, indexed by codesift. What the index knows of it:\n\n"
            f"**Languages** ({_n(payload['files'], 'file')}): {_languages(payload['languages'])}")
    sections = [
        Section("## Top-level folders", [f"- `{s['service']}`: {_n(s['files'], 'file')}, {_n(s['symbols'], 'symbol')}"
                                         for s in payload.get("sources") or []], "list_sources"),
        Section("## Entry points", [_entry(e) for e in payload["entry_points"]], "find_symbol main, grep_code",
                intro="Definitions named main, CLI commands, `__main__` blocks, files named main/app/server/cli, "
                      "packages:"),
        Section("## Main modules", [_module(m) for m in payload["main_modules"]], "get_repo_map",
                intro="The most referenced files (repository map), with their most referenced definitions:"),
        Section(f"## HTTP routes ({count_of(payload['routes'])})", [_route(r) for r in payload["routes"]],
                "search_code with the path, or grep_code"),
    ]
    service = f'service="{scope}"' if scope else "service=…"
    tail = ("## Next\n"
            "Write a short overview: what this code does, how it is started (entry points), its main modules and "
            "what each is for, and how a request or command flows through them. Check before you state: "
            "get_file_outline on a main module, get_code_context(file_path, symbol_name) on an entry point, "
            f"callees / find_usages / callers to follow the flow, search_code for behaviour in words, "
            f"get_repo_map({service}) for more of the map. Cite path:line.")
    return fit(head, sections, tail, max_chars)


def render_system_design(payload: SystemDesign, max_chars: int = PROMPT_MAX_CHARS) -> str:
    """The system_design prompt: each top-level folder with what the index knows of it, then the task."""
    head = (f"Describe the system design of the repository at {payload['root']}, indexed by codesift.\n"
            f"**Languages**: {_languages(payload['languages'])}. Its top-level folders, with what the index "
            "knows of each:")
    sections = []
    for s in payload["services"]:
        name = "(top-level files)" if s["service"] == "." else f"`{s['service']}/`"
        lines = [f"- languages: {_languages(s['languages'], 4)}"] if s["languages"] else []
        if s["main_modules"]:
            lines.append("- key modules: " + "; ".join(
                f"`{m['path']}` ({', '.join(x['name'] for x in m['symbols'])})" for m in s["main_modules"]))
        entries = s["entry_points"]
        if entries:
            shown = ", ".join(f"`{e['path']}`" + (f" {e['name']}" if e["kind"] != "file" else "")
                              for e in entries[:4])
            lines.append(f"- entry points: {shown}" + (f" (+{len(entries) - 4})" if len(entries) > 4 else ""))
        routes = s["routes"]
        if routes:
            shown = ", ".join(f"{inline(r['route'])} → {r['handler']}" for r in routes[:3])
            lines.append(f"- HTTP routes ({count_of(routes)}): {shown}" + (", …" if len(routes) > 3 else ""))
        sections.append(Section(f"### {name} — {_n(s['files'], 'file')}, {_n(s['symbols'], 'symbol')}", lines,
                                f'get_repo_map(service="{s["service"]}")'))
    more = payload.get("more_services") or []
    if more:
        sections.append(Section("### More folders", [", ".join(f"`{m}`" for m in more)], "list_sources"))
    tail = ("## Task\n"
            "Describe how these parts fit together: what each folder is responsible for, which depends on which "
            "(imports, calls, HTTP routes, shared modules), where requests and data enter and leave, and what is "
            "shared. Verify every link with the tools rather than guessing from names: find_usages(name) or "
            "callers(name) on a key definition to see which folders use it, search_code for behaviour in words, "
            "get_repo_map(service=…) for a folder's map, get_file_outline / get_code_context to read. Cite "
            "path:line for each claim and say what you could not verify.")
    return fit(head, sections, tail, max_chars)
