"""The agent tools (search_code, find_symbol, find_usages, get_code_context, find_similar, drill_down,
summarize_matches, index_status, list_sources) as functions over a :class:`codesift.tools.base.Workspace`
(root, store, index folder, config, search, vectors), which :class:`codesift.Index` builds and passes on.

Each returns plain data (dicts and lists, JSON-ready), typed in :mod:`codesift.tools.payloads`;
:mod:`codesift.tools.markdown` renders them for agents. The Python API, the CLI and the MCP server all call these.
"""
