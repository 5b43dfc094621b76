"""MCP tools of the nav tools; :func:`build_server` adds what :func:`tools` returns: ``grep_code`` (exact
and regex search with the enclosing symbol of each hit) and ``get_file_outline`` (a file's symbols)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mcp_types import CallToolResult

from codesift.server.args import (CaseSensitive, FilePath, GrepContext, GrepLimit, GrepPattern, Language, MaxChars, Offset,
                       PathFilter, Regex, Service)
from codesift.tools import markdown as md

if TYPE_CHECKING:
    from codesift.api import Index
    from codesift.server.service import IndexService

GREP = ("Find every line holding an exact string (or a regex with regex=true) in the indexed files, like "
        "grep/rg but answered from a trigram index and with the enclosing function/class of each hit. Use it "
        "instead of shell grep or reading files for identifiers, error messages, config keys and TODOs; use "
        "search_code for behaviour described in words. Returns path:line, the enclosing symbol and the line "
        "(context_lines around it if asked), read from the live files; filters: path, language, service; "
        "pages with offset.")
OUTLINE = ("The outline of one file: its classes, functions, methods (and Markdown sections) nested, each with "
           "kind, line range, signature and first doc line, no bodies. Use it instead of reading a whole file to "
           "see its shape, then get_code_context(file_path, symbol_name) for the one symbol you need.")


def tools(svc: "IndexService") -> dict[Callable[..., Any], str]:
    """Tool function → description, bound to svc."""
    from codesift.server.common import answer
    from codesift.tools.markdown.nav import render_grep, render_outline

    async def grep_code(pattern: GrepPattern, regex: Regex = False, path: PathFilter = None,
                        language: Language = None, service: Service = None, case_sensitive: CaseSensitive = True,
                        context_lines: GrepContext = 0, limit: GrepLimit = 50, offset: Offset = 0,
                        max_chars: MaxChars = md.DEFAULT_MAX_CHARS) -> CallToolResult:
        from codesift.tools.grep import compile_pattern

        budget = md.clamp_max_chars(max_chars)

        def work(index: "Index") -> md.Rendered:
            found = index.grep(pattern, regex=regex, path=path, language=language, service=service,
                               case_sensitive=case_sensitive, context_lines=context_lines, limit=limit,
                               offset=offset)
            return render_grep(found, budget)
        return await answer("grep_code", svc, work, refresh=True,
                            check=lambda: compile_pattern(pattern, regex=regex, case_sensitive=case_sensitive))

    async def get_file_outline(file_path: FilePath, offset: Offset = 0,
                               max_chars: MaxChars = md.DEFAULT_MAX_CHARS) -> CallToolResult:
        budget = md.clamp_max_chars(max_chars)

        def work(index: "Index") -> md.Rendered:
            return render_outline({**index.outline(file_path), "offset": offset}, budget)
        return await answer("get_file_outline", svc, work, refresh=True)

    return {grep_code: GREP, get_file_outline: OUTLINE}
