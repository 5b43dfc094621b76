"""``codesift init``: register the MCP server with an agent client and tell the agent when to use which tool."""
