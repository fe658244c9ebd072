"""The phones' Flask app (private per-player views, pushed live). Built by its own issue."""
