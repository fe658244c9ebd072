"""The web app's own HTTP refusals, each with its refusal code: the error page (web_ui/__init__.py)
renders it in the reader's language by that code (web_ui/i18n/messages.py), never by reading the
English description, which stays for logs and API clients.

    refuse(404, "web.record-too-early", "the record can be downloaded once the game is over")
"""
from __future__ import annotations

from typing import NoReturn

from werkzeug.exceptions import HTTPException, default_exceptions


def refuse(status: int, code: str, description: str) -> NoReturn:
    """Abort the request with `status`, its page saying refusal `code`."""
    exc = default_exceptions[status](description=description)
    exc.refusal_code = code     # type: ignore[attr-defined]
    raise exc


def code_of(exc: HTTPException) -> str:
    """The refusal code of an HTTP error: the app's own (`refuse`), else `http.<status>`."""
    return getattr(exc, "refusal_code", None) or f"http.{exc.code or 500}"
