"""Task families that span apps: one piece of work done across several of the company's tools."""
