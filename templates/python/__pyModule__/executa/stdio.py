"""Keeps stdout for protocol frames: the runtime takes a duplicate of the real stdout, and fd 1,
``sys.stdout`` (``print``) and anything a C extension writes to fd 1 go to stderr."""

import os
import sys


def protect_stdout() -> int:
    """Returns a file descriptor of the real stdout, for the frame writer only."""
    try:
        sys.stdout.flush()
    except (AttributeError, OSError, ValueError):
        pass
    out = os.dup(1)
    os.dup2(2, 1)
    sys.stdout = sys.stderr
    return out


def log(message: str) -> None:
    """One line on stderr."""
    try:
        sys.stderr.write(message + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
