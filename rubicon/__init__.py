"""Rubicon, the application: the table session that owns the one game (rubicon/table), the journal
that keeps every acknowledged action on disk, the configuration, the pairings' store, the bot, and the
`rubicon` command (rubicon/cli, the composition root). The web app (web_ui) serves it; the drivers
(firmware_bridge) feed it; the rules are the engine's (engine)."""
