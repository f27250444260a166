"""Frames that nest deeper than MAX_DEPTH levels: they are valid JSON or not, and may carry a
top-level id, but are never handed on as values (a parser's time and stack grow with depth)."""

import json
import re

# The deepest frame the runtime takes; the frame object itself is level 1.
MAX_DEPTH = 64

_SCALAR = re.compile(
    rb'"(?:[^"\\\x00-\x1f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"'
    rb"|-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null"
)
_SPACE = re.compile(rb"[ \t\r\n]*")
_OPEN_ARRAYS = re.compile(rb"\[(?:[ \t\r\n]*\[)*")
_CLOSE_ARRAYS = re.compile(rb"\](?:[ \t\r\n]*\])*")

_VALUE, _VALUE_OR_CLOSE, _KEY_OR_CLOSE, _KEY, _COLON, _COMMA_OR_CLOSE = range(6)


def nests_too_deep(value) -> bool:
    """True when a parsed value nests deeper than MAX_DEPTH (the value itself is level 1)."""
    stack = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        children = item.values() if type(item) is dict else item if type(item) is list else None
        if children is None:
            continue
        if depth > MAX_DEPTH:
            return True
        stack.extend((child, depth + 1) for child in children if type(child) in (dict, list))
    return False


def scan_deep(data: bytes):
    """Checks that the bytes are one JSON value without building it.

    Returns:
        ``(valid, id_text, response)``: id_text is the text of the top-level object's "id" member
        when it is a scalar (``b"{}"`` when it is a container, None when absent); response says the
        object is a response: a "result" or "error" member and no "method".
    """
    stack = bytearray()
    want = _VALUE
    key_is_id = False
    id_text = None
    top_keys = set()
    i = _SPACE.match(data).end()
    n = len(data)
    while i < n:
        b = data[i]
        if want == _COLON:
            if b != 0x3A:
                return False, None, False
            want = _VALUE
            i += 1
        elif want == _COMMA_OR_CLOSE:
            if not stack:
                return False, None, False
            if b == 0x2C:
                want = _KEY if stack[-1] == 0x7B else _VALUE
                i += 1
            elif b == 0x5D and stack[-1] == 0x5B:
                run = _CLOSE_ARRAYS.match(data, i)
                count = run.group().count(b"]")
                if stack[-count:] != b"[" * count:
                    return False, None, False
                del stack[-count:]
                i = run.end()
            elif b == 0x7D and stack[-1] == 0x7B:
                stack.pop()
                i += 1
            else:
                return False, None, False
        elif want in (_KEY, _KEY_OR_CLOSE):
            if b == 0x7D and want == _KEY_OR_CLOSE:
                stack.pop()
                want = _COMMA_OR_CLOSE
                i += 1
            else:
                m = _SCALAR.match(data, i) if b == 0x22 else None
                if m is None:
                    return False, None, False
                key = m.group()
                top_key = (json.loads(key) if b"\\" in key else key[1:-1].decode("utf-8")) if len(stack) == 1 else None
                if top_key is not None:
                    top_keys.add(top_key)
                key_is_id = top_key == "id"
                want = _COLON
                i = m.end()
        elif b == 0x5D and want == _VALUE_OR_CLOSE:
            stack.pop()
            want = _COMMA_OR_CLOSE
            i += 1
        elif b in (0x5B, 0x7B):
            if key_is_id:
                id_text = b"{}"  # a container is never a valid id
            key_is_id = False
            if b == 0x5B:
                run = _OPEN_ARRAYS.match(data, i)
                stack += b"[" * run.group().count(b"[")
                i = run.end()
                # the last "[" may be closed at once
                want = _VALUE_OR_CLOSE
            else:
                stack.append(b)
                want = _KEY_OR_CLOSE
                i += 1
        else:
            m = _SCALAR.match(data, i)
            if m is None:
                return False, None, False
            if key_is_id:
                id_text = m.group()
            key_is_id = False
            want = _COMMA_OR_CLOSE
            i = m.end()
        i = _SPACE.match(data, i).end()
        if not stack and want == _COMMA_OR_CLOSE:
            return i == n, id_text, "method" not in top_keys and ("result" in top_keys or "error" in top_keys)
    return False, None, False
