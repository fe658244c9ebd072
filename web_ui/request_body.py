"""Request bodies: the one place a route's JSON body is read and its fields checked.

Whatever arrives (not JSON, not an object, nested thousands deep, a list where a text was
expected), a route gets a dict, a field of the type it asked for, or a 4xx refusal with a code —
never an exception that becomes a 500. The size is capped by Flask's `MAX_CONTENT_LENGTH`
(413, `http.413`) before anything is parsed.

    data = json_object()                       # 400 web.not-json unless the body is a JSON object
    token = text_field(data, "token")          # None unless a non-empty string
    count = int_field(data, "count")           # None unless an integer (not a bool)
"""
from __future__ import annotations

from typing import Any

from flask import request

from .aborts import refuse

NOT_JSON = "the request must be a JSON object"   # its page: web.not-json


def json_object() -> dict[str, Any]:
    """The request's JSON object; a 400 refusal (`web.not-json`) for anything else."""
    try:
        data = request.get_json(silent=True)
    except RecursionError:
        # The standard library's parser gives up on a body nested deeper than the interpreter's
        # recursion limit; no request of ours nests more than two levels.
        data = None
    if not isinstance(data, dict):
        refuse(400, "web.not-json", NOT_JSON)
    return data


def text_field(data: dict[str, Any], name: str) -> str | None:
    """`data[name]` when it is a non-empty string (one a person could have typed), else None."""
    value = data.get(name)
    if not isinstance(value, str) or not value.strip() or not value.isprintable():
        return None
    return value


def int_field(data: dict[str, Any], name: str) -> int | None:
    """`data[name]` when it is an integer (JSON's true/false are not numbers here), else None."""
    value = data.get(name)
    if isinstance(value, bool) or not isinstance(value, int):
        return None
    return value
