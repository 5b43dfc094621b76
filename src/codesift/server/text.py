"""What the MCP server tells the agent: the server instructions (sent once, at initialisation) and the
descriptions of the tools defined in :mod:`codesift.server.mcp` (``server/nav.py`` and ``server/graph.py`` keep
their own). Each description says what the tool answers, when to use it instead of reading files or
grepping, and which call usually comes next."""

from __future__ import annotations

INSTRUCTIONS = """\
codesift answers questions about one local repository's code from an index: by meaning, by name, by exact
text and over the static reference graph. Answers give path:line ranges and the enclosing definition, stay
bounded (about 2k tokens, paged with offset), and end with the next useful call. Prefer it to grep/rg, find
and reading whole files:
- behaviour described in words ("where are redirects followed"): search_code; summarize_matches for one
  line per file, no code;
- an unfamiliar repository: get_repo_map (focus= the files or symbols you work on); list_sources for the
  top-level folders you can pass as service=;
- (part of) a name: find_symbol; exact text or a regex (identifiers, error messages, config keys): grep_code;
- a file's shape: get_file_outline; one definition's current source: get_code_context(file_path,
  symbol_name);
- before changing code: find_usages (every real reference, tests last), callers / callees (one hop of the
  call graph), impact (everything that reaches a symbol within depth hops);
- more code like one result: find_similar, or drill_down for one match per file (pass the result's ID);
- why or when something changed, who changed a file: search_commits (the git history's messages and changed
  paths, after `codesift index --history`), then get_commit(sha) for the message, files and diff;
- index_status when results look incomplete; reindex after changing many files at once (a branch switch,
  generated code) so that every tool sees them.
Result labels say how often results like them are the answer: HIGH about 4 in 5, GOOD 1 in 2, FAIR 1 in 6,
LOW 1 in 14, WEAK rarely; the first result is the answer about half the time even when LOW, and with the best
label FAIR or LOW one of the top 3 still is about 3 times in 4: read them before searching again, unless the
notes say nothing matches the query well.
Prompts: service_overview (path= a folder) and system_design start an overview of the code from the index.
Read a file in full only when you are about to edit it."""

DESCRIPTIONS: dict[str, str] = {
    "search_code": "Search the repository's code by meaning and keywords (hybrid BM25 + embeddings) for behaviour "
                   "described in words ('where are redirects followed', 'parse the JSON body'). Use it instead of "
                   "grepping guessed words or opening files to find where something is done; use find_symbol for "
                   "a name you know, grep_code for exact text. Returns ranked definitions (function, method, "
                   "class, doc section) with path:start-end, score, signature, decorators/route and a code "
                   "snippet; each has an ID for find_similar / drill_down, and get_code_context reads one in "
                   "full. Filters: service, path, language, kind. Long answers are cut at max_chars and name the "
                   "offset of the next page.",
    "find_symbol": "Find definitions by name: exact (qualified) matches first, then prefix, camel-hump ('RCJ' → "
                   "RequestsCookieJar) and substring matches; a top-level constant or variable (DEFAULT_TIMEOUT = 30, "
                   "var ErrNotFound = …) when no function, class or type has the name. Use it instead of grepping "
                   "for 'def name' or 'class "
                   "Name' when you know (part of) a name; use search_code for behaviour described in words. "
                   "Returns location, kind, signature, decorators, the docstring's first paragraph and an ID, no "
                   "bodies: read one with get_code_context(file_path, symbol_name), its uses with find_usages.",
    "find_usages": "Find where a symbol is used: calls, imports, type uses, inheritance, decorators, attribute "
                   "reads, from the static reference index (strings, comments and the definitions themselves are "
                   "left out). Use it instead of grepping for the name, before changing a signature or to see "
                   "how something is called; callers lists only the calling definitions, impact follows several "
                   "hops. Returns path:line, the kind of use, the enclosing definition and the line of code; "
                   "non-test code first, grouped by likely target when several definitions share the name "
                   "(pass 'Type.name' for one of them). A name with no static use gets the string literals (and Ruby "
                   "symbols) that spell it whole (kind 'string' / 'symbol': a callable or a lookup by name), then "
                   "semantic guesses.",
    "get_code_context": "Read the current source of one definition (symbol_name, plus context_lines around) or of "
                        "a file, with line numbers; optionally at a git ref. Use it instead of reading whole "
                        "files: pass the path and name that search_code, find_symbol, grep_code or "
                        "get_file_outline gave you. Paths are relative to the indexed root; paths outside it are "
                        "refused. Long files are cut at max_chars: continue with start_line.",
    "find_similar": "Find code semantically similar to one result (by embedding): other implementations of the "
                    "same idea, near-duplicates, related helpers (never a part of the result itself nor the class "
                    "holding it). Use it instead of repeating search_code with other words once you have one "
                    "good hit; pass the ID of a search_code or find_symbol result.",
    "drill_down": "Map a concern across the tree from one result: like find_similar but at most one result per "
                  "file and never the result's own file, so you see every place that deals with the same thing. "
                  "Use it instead of several searches when a fix may be needed in more than one file; pass a "
                  "search_code or find_symbol result's ID.",
    "summarize_matches": "A cheap file-level overview for a query: one line per matching file with its best score, "
                         "a one-line description and the matching symbols, no code. Use it instead of opening "
                         "candidate files to decide which matter, or when search_code's answers would be too "
                         "long; then get_file_outline or get_code_context on the files you pick.",
    "index_status": "What the index holds: root, file and symbol counts, languages, skipped files and why, the "
                    "embedding model and semantic coverage (below 100% while embedding runs in the background), "
                    "last update. Use it when results look incomplete or a file seems missing, before falling "
                    "back to grep or reading files.",
    "list_sources": "The indexed root and its top-level folders with file and symbol counts. Use it instead of "
                    "listing directories to learn the repository's layout and the names to pass as service= to "
                    "the search, map and call-graph tools.",
}
