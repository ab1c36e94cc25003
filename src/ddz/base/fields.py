"""Reading game records defensively: every fault becomes a ``ddz.errors.RecordError`` naming
the field (and the action number) at fault, never a ``KeyError`` or ``TypeError`` from deep
inside.

The records themselves are written and replayed by the games (``ddz.doudizhu``, ``ddz.uno``);
this module holds what their readers share: the size limit, the JSON load, and typed field access.
"""

from __future__ import annotations

import json
from typing import Any, TypeVar

from ddz.base.errors import MAX_RECORD, RecordError, shorten

T = TypeVar("T")

_TYPE_NAMES = {
    dict: "an object",
    list: "a list",
    str: "text",
    int: "an integer",
    bool: "true or false",
    type(None): "null",
}


def load_json(text: object, record_format: str, what: str) -> dict[str, Any]:
    """The record's top-level object, checked for its ``format`` field; RecordError for text
    that is too long, not JSON, nested too deeply, not an object or of another format."""
    data = load_object(text, what)
    if data.get("format") != record_format:
        raise RecordError(f"not {what} (format {record_format})", field="format")
    return data


def load_object(text: object, what: str, field: str | None = None) -> dict[str, Any]:
    """A JSON object from text; RecordError (naming ``field``) for text that is too long, not
    JSON, nested too deeply or not an object."""
    if isinstance(text, (bytes, bytearray)):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise RecordError(f"{what} is UTF-8 JSON text, not undecodable bytes") from None
    if not isinstance(text, str):
        raise RecordError(f"{what} is JSON text, not {type(text).__name__}")
    if len(text) > MAX_RECORD:
        raise RecordError(
            f"{what} of {len(text)} characters is longer than {MAX_RECORD}", field=field
        )
    try:
        data = json.loads(text)
    except RecursionError:
        raise RecordError(f"{what}: JSON nested too deeply", field=field) from None
    except ValueError as error:  # json.JSONDecodeError
        raise RecordError(f"{what} is not JSON: {shorten(str(error))}", field=field) from None
    if not isinstance(data, dict):
        raise RecordError(f"{what} is a JSON object, not {shorten(data)}", field=field)
    return data


def field(data: dict[str, Any], name: str, kind: type[T] | tuple[type, ...]) -> T:
    """``data[name]``, which must be there and of ``kind`` (``int`` excludes ``bool``)."""
    if name not in data:
        raise RecordError("missing", field=name)
    value = data[name]
    kinds = kind if isinstance(kind, tuple) else (kind,)
    ok = False if isinstance(value, bool) and bool not in kinds else isinstance(value, kinds)
    if not ok:
        expected = " or ".join(_TYPE_NAMES.get(k, k.__name__) for k in kinds)
        raise RecordError(f"expected {expected}, not {shorten(value)}", field=name)
    return value  # type: ignore[no-any-return]


def strings(data: dict[str, Any], name: str) -> list[str]:
    """``data[name]`` as a list of strings. A list of ``actions`` names the action at fault
    by its number (from 1), as a replay does; another list its item (from 0)."""
    values = field(data, name, list)
    for number, value in enumerate(values):
        if not isinstance(value, str):
            if name == "actions":
                raise RecordError(f"{shorten(value)} is not text", ply=number + 1, field=name)
            raise RecordError(f"item {number} is {shorten(value)}, not text", field=name)
    return values
