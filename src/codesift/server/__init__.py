"""The servers: MCP over stdio or streamable HTTP (:mod:`codesift.server.mcp`), the page and its JSON API, auth, watch."""
