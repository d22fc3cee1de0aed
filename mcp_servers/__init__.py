"""Each app's MCP toolsets, as tables of tool → operation bindings (`officegym.faces.mcp`)."""
