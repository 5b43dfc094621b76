"""Markdown for agents (bounded by a character budget) and plain text for the CLI: one renderer per tool.

The budget and :class:`Rendered` live in :mod:`.common`; the search and symbol family in :mod:`.render`;
usages, the graph, grep and outline, commits and the prompts each in their own module.
"""

from codesift.tools.markdown.common import (DEFAULT_MAX_CHARS, MAX_MAX_CHARS, MIN_MAX_CHARS, TEXT_FIELDS, Payload,
                                            Rendered, clamp_max_chars, fence, inline, lean)
from codesift.tools.markdown.render import (render_context, render_search, render_similar, render_sources,
                                            render_status, render_summary, render_symbols)
from codesift.tools.markdown.usages import render_usages

__all__ = ["DEFAULT_MAX_CHARS", "MAX_MAX_CHARS", "MIN_MAX_CHARS", "TEXT_FIELDS", "Payload", "Rendered",
           "clamp_max_chars", "fence", "inline", "lean", "render_context", "render_search", "render_similar",
           "render_sources", "render_status", "render_summary", "render_symbols", "render_usages"]
