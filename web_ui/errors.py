"""The root of every error the web app raises: `except WebUiError` catches any of them.

A refused request is answered with a refusal code and a status, not an exception; these are the
errors the app's own code raises between its parts (pairing refused, for one). Each is also the
builtin a caller would expect.
"""
from __future__ import annotations


class WebUiError(Exception):
    """Something the web app refuses or cannot do; the message says what to do next."""
