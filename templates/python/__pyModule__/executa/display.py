"""``with_display``: the chat UI renders an invoke's top-level ``_display`` verbatim (long
reference §9). The runtime defines no block types; it only puts the value in its place."""

from __future__ import annotations

import math


def _check_json(value, path: str, ancestors: list) -> None:
    """Raises TypeError (ValueError for NaN and Infinity) naming the path of the first value JSON cannot carry."""
    if value is None or isinstance(value, (str, bool, int)):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"with_display: {path} is {value}, which JSON cannot carry")
        return
    if not isinstance(value, (dict, list, tuple)):
        raise TypeError(f"with_display: {path} is a {type(value).__name__}, which JSON cannot carry")
    if any(a is value for a in ancestors):
        raise TypeError(f"with_display: {path} refers back to itself (a cycle)")
    ancestors.append(value)
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"with_display: {path} has the key {key!r}, not a string")
            _check_json(item, f"{path}.{key}", ancestors)
    else:
        for i, item in enumerate(value):
            _check_json(item, f"{path}[{i}]", ancestors)
    ancestors.pop()


def with_display(data: dict, display: dict | list) -> dict:
    """A copy of ``data`` with ``display`` as its top-level ``_display``: what the chat shows as is.

    Args:
        data: The tool's result, a dict.
        display: The display blocks: a dict or a list of JSON values.

    Raises:
        TypeError: ``data`` is not a dict, ``display`` not a dict or list, or it holds a value
            JSON cannot carry (the message names its path).
        ValueError: ``display`` holds NaN or Infinity.
    """
    if not isinstance(data, dict):
        raise TypeError(f"with_display: data must be a dict, got {type(data).__name__}")
    if not isinstance(display, (dict, list)):
        raise TypeError(f"with_display: display must be a dict or a list, got {type(display).__name__}")
    _check_json(display, "display", [])
    return {**data, "_display": display}
