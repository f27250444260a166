"""Framing: stdin bytes -> one frame per line, at most 16 MiB each, checked as UTF-8, parsed as JSON."""

import json

# The longest frame, in bytes without its newline.
MAX_FRAME_BYTES = 16 * 1024 * 1024

_DISCARD_CHUNK = 1024 * 1024


class Oversize:
    """A line longer than MAX_FRAME_BYTES, discarded up to its newline."""


OVERSIZE = Oversize()


class FrameReader:
    """Reads lines from a binary stream (``sys.stdin.buffer``), discarding lines over the limit."""

    def __init__(self, stream, max_bytes: int = MAX_FRAME_BYTES) -> None:
        self._readline = stream.readline
        self._max = max_bytes

    def read(self):
        """The next line without its ``\\n`` (bytes), OVERSIZE, or None at end of input."""
        line = self._readline(self._max + 1)
        if not line:
            return None
        if line[-1:] == b"\n":
            return line[:-1]
        if len(line) <= self._max:
            return line  # the last line, without a newline
        # Too long: skip to the next newline (or the end of input).
        while True:
            rest = self._readline(_DISCARD_CHUNK)
            if not rest or rest[-1:] == b"\n":
                return OVERSIZE


def _no_constants(name: str):
    raise ValueError(f"{name} is not valid JSON")


_decode = json.JSONDecoder(parse_constant=_no_constants).decode


# decode_frame's answer for a blank line (JSON ``null`` is a frame, and is answered).
BLANK = object()


class ParseError(Exception):
    """A line that is not valid UTF-8 or not JSON."""


def decode_frame(line: bytes):
    """Bytes of one line -> the parsed JSON value, or BLANK for a blank line.

    Raises:
        ParseError: The line is not valid UTF-8, or not JSON.
    """
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError:
        raise ParseError("Parse error: frame is not valid UTF-8") from None
    text = text.strip()
    if not text:
        return BLANK
    try:
        return _decode(text)
    except ValueError as err:  # json.JSONDecodeError, or NaN / Infinity
        raise ParseError(f"Parse error: {err}") from None
    except RecursionError:
        raise ParseError("Parse error: nested too deeply") from None
