"""The tournaments' pages and API (the web layer)."""
