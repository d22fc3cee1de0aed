"""The generic faces: MCP tools, REST methods and UI handlers bound to declared operations."""
