"""The MCP tools' argument types, shown to the agent as JSON schema (see ``server/mcp.py``).

Lengths of queries and names are checked by :mod:`codesift.limits` (the API's and the CLI's check, with
the same message), not by pydantic: the schema only advertises them. ``max_chars`` is not bounded here
either: the tools bring it into range (``markdown.clamp_max_chars``) instead of refusing it.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field

from codesift.limits import MAX_NAME_CHARS, MAX_QUERY_CHARS, MAX_SEARCH_LIMIT, MAX_USAGES_LIMIT
from codesift.tools import markdown as md

Query = Annotated[str, Field(description=f"What to look for, in words or identifiers (at most {MAX_QUERY_CHARS:,} "
                                         "characters).", json_schema_extra={"maxLength": MAX_QUERY_CHARS})]
Limit = Annotated[int, Field(ge=1, le=MAX_SEARCH_LIMIT, description=f"Maximum number of results (1-{MAX_SEARCH_LIMIT:,}).")]
Offset = Annotated[int, Field(ge=0, le=10_000, description="Skip this many results (paging: use the "
                                                             "offset a truncated answer names).")]
Service = Annotated[str | list[str] | None, Field(description="Service(s) to search in: a top-level folder or a "
                                                           "configured service (see list_sources), e.g. 'src', or "
                                                           "a list / comma-separated names.")]
Language = Annotated[str | list[str] | None, Field(description="Language(s), a list or comma-separated: python, "
                                                              "javascript, typescript, go, java, rust, markdown, …")]
Kind = Annotated[str | list[str] | None, Field(description="Symbol kind(s), a list or comma-separated: function, "
                                                          "method, class, section, …")]
MaxChars = Annotated[int, Field(description=f"Budget for the answer's text in characters (default "
                                            f"{md.DEFAULT_MAX_CHARS:,}; values outside {md.MIN_MAX_CHARS:,}-"
                                            f"{md.MAX_MAX_CHARS:,} are brought into that range); what does not "
                                            "fit is left out and the answer says how to page.")]
ResultId = Annotated[int, Field(ge=1, description="The ID of a search_code / find_symbol result.")]
Mode = Annotated[Literal["hybrid", "keyword", "semantic"],
                 Field(description="hybrid (default) fuses keyword and semantic ranking; keyword or semantic alone.")]
PathFilter = Annotated[str | None, Field(description="Path prefix ('src/') or glob ('**/*.py').")]
Threshold = Annotated[float | None, Field(ge=0, le=1, description="Drop results scoring below this (0-1).")]
Name = Annotated[str, Field(description="A name or part of one: 'rebuild_auth', 'Session.get', 'RCJ' (camel "
                                        "humps).", json_schema_extra={"maxLength": MAX_NAME_CHARS})]
SymbolType = Annotated[str | list[str] | None, Field(description="Kind(s): function, method, class, …")]
Exact = Annotated[bool, Field(description="Only exact (qualified) name matches.")]
UsedName = Annotated[str, Field(description="The name whose uses to find, e.g. 'rebuild_auth'.",
                                json_schema_extra={"maxLength": MAX_NAME_CHARS})]
UsageLimit = Annotated[int, Field(ge=1, le=MAX_USAGES_LIMIT,
                                  description=f"Maximum number of usages (1-{MAX_USAGES_LIMIT:,}).")]
FilePath = Annotated[str, Field(min_length=1, description="Path relative to the indexed root, e.g. 'src/app.py'.")]
SymbolName = Annotated[str | None, Field(description="Show only this definition: 'rebuild_auth' or 'Class.method'.")]
GitRef = Annotated[str | None, Field(description="A git revision to read instead of the working tree: 'HEAD~1'.")]
ContextLines = Annotated[int, Field(ge=0, le=500, description="Lines shown around the symbol.")]
StartLine = Annotated[int | None, Field(ge=1, description="Continue a truncated answer from this line.")]
SimilarLimit = Annotated[int, Field(ge=1, le=50, description="Maximum number of results (1-50).")]
SymbolLimit = Annotated[int, Field(ge=1, le=100, description="Maximum number of definitions (1-100).")]
# grep_code / get_file_outline (issue 13)
GrepPattern = Annotated[str, Field(min_length=1, description="The exact text to find (a literal: no escaping needed), "
                                                           "or a Python regex with regex=true; matched line by line.",
                                   json_schema_extra={"maxLength": 1000})]
Regex = Annotated[bool, Field(description="Treat pattern as a Python regular expression instead of literal text.")]
CaseSensitive = Annotated[bool, Field(description="Match case exactly (default true); false ignores case.")]
GrepContext = Annotated[int, Field(ge=0, le=20, description="Lines shown before and after each hit (0-20).")]
GrepLimit = Annotated[int, Field(ge=1, le=500, description="Maximum number of hits (1-500).")]
