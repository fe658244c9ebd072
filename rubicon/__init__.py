"""Rubicon's command line: one `rubicon` entry point that gathers the subcommands of each package."""
