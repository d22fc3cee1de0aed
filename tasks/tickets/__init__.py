"""Task families of the tickets app (Jira)."""
