"""Framing: stdin bytes -> one frame per line, at most 16 MiB each, checked as UTF-8, parsed as JSON."""

import json
import re

from .deep import MAX_DEPTH, nests_too_deep, scan_deep

# The longest frame, in bytes without its line ending (``\n``, or ``\r\n``).
MAX_FRAME_BYTES = 16 * 1024 * 1024

_DISCARD_CHUNK = 1024 * 1024
_BOM = b"\xef\xbb\xbf"


class Oversize:
    """A line longer than MAX_FRAME_BYTES, discarded up to its newline."""


OVERSIZE = Oversize()


class FrameReader:
    """Reads lines from a binary stream (``sys.stdin.buffer``), discarding lines over the limit.
    A BOM at the very start of the stream is dropped."""

    def __init__(self, stream, max_bytes: int = MAX_FRAME_BYTES) -> None:
        self._readline = stream.readline
        self._max = max_bytes
        self._first = True

    def read(self):
        """The next line without its line ending (bytes), OVERSIZE, or None at end of input."""
        line = self._readline(self._max + 2)  # the frame, a \r and the \n
        if not line:
            return None
        if self._first:
            self._first = False
            if line.startswith(_BOM):
                line = line[3:]
        if line[-1:] == b"\n":
            line = line[:-1]
        elif len(line) >= self._max + 2:
            # Too long: skip to the next newline (or the end of input).
            while True:
                rest = self._readline(_DISCARD_CHUNK)
                if not rest or rest[-1:] == b"\n":
                    return OVERSIZE
        if line[-1:] == b"\r":
            line = line[:-1]  # part of the line ending, not of the frame
        return OVERSIZE if len(line) > self._max else line


def _no_constants(name: str):
    raise ValueError(f"{name} is not valid JSON")


_decoder = json.JSONDecoder(parse_constant=_no_constants)
_scan = _decoder.scan_once


def _decode(text: str):
    """JSON text -> its value. A frame is almost always one value with no whitespace around it: that
    is scanned at once, without json's two Python-level calls (half the time of a small frame);
    anything else goes the long way, which also words the errors."""
    try:
        value, end = _scan(text, 0)
    except StopIteration:
        return _decoder.decode(text)
    return value if end == len(text) else _decoder.decode(text)


_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")
_SURROGATE = re.compile("[\ud800-\udfff]")

# decode_frame's answer for a blank line (JSON ``null`` is a frame, and is answered).
BLANK = object()


class ParseError(Exception):
    """A line that is not valid UTF-8 or not JSON."""


class TooDeep(Exception):
    """Valid JSON nested deeper than MAX_DEPTH levels; ``id`` is its top-level id (None when absent),
    ``response`` says it is a response (a "result" or "error" member and no "method")."""

    def __init__(self, id, response: bool) -> None:
        super().__init__(id)
        self.id = id
        self.response = response


def well_formed(text: str) -> str:
    """The text with each lone surrogate replaced by U+FFFD (a surrogate pair becomes its code point)."""
    if not _SURROGATE.search(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _repair(value):
    if type(value) is str:
        return well_formed(value)
    if type(value) is list:
        return [_repair(v) for v in value]
    if type(value) is dict:
        return {well_formed(k): _repair(v) for k, v in value.items()}
    return value


def decode_frame(line: bytes):
    """Bytes of one line -> the parsed JSON value, or BLANK for a blank line.

    Raises:
        ParseError: The line is not valid UTF-8, or not JSON.
        TooDeep: The line is valid JSON nested deeper than MAX_DEPTH levels.
    """
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise ParseError("Parse error: frame is not valid UTF-8") from None
    if not line.strip(b" \t\r\n"):
        return BLANK
    deep = line.count(b"[") + line.count(b"{") > MAX_DEPTH
    try:
        value = _decode(text)
    except RecursionError:
        valid, id_text, response = scan_deep(line)
        if not valid:
            raise ParseError(f"Parse error: not valid JSON (and nested deeper than {MAX_DEPTH} levels)") from None
        raise TooDeep(_id_value(id_text), response) from None
    except ValueError as err:  # json.JSONDecodeError, or NaN / Infinity
        raise ParseError(f"Parse error: {err}") from None
    if deep and nests_too_deep(value):
        if type(value) is not dict:
            raise TooDeep(None, False)
        raise TooDeep(_repair(value.get("id")), "method" not in value and ("result" in value or "error" in value))
    return _repair(value) if _ESCAPED_SURROGATE.search(line) else value


def _id_value(id_text):
    if id_text is None:
        return None
    try:
        return _repair(_decode(id_text.decode("utf-8")))
    except ValueError:
        return None
