"""Allows `python -m rubicon ...`."""
from rubicon.cli import main

raise SystemExit(main())
