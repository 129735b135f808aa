"""The table's web app: the players' phones as the board's screen (docs/web.md)."""
