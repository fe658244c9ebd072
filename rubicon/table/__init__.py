"""The table: the session that owns the game being played at the table, and what feeds it."""
