"""The ToolContext a tool receives as its keyword-only ``ctx``: invoke id, deadline, credentials,
host client, log."""

from __future__ import annotations

import os
import sys
import time
from builtins import type as builtins_type

from .jsjson import number_text

TYPE_CHECKING = False  # typing.TYPE_CHECKING, without importing typing at start-up
if TYPE_CHECKING:
    from .client import HostClient

DEFAULT_TIMEOUT_S = 60
# The latest deadline a host can give: the end of JavaScript's Date range.
LATEST_DEADLINE_MS = 8.64e15
_MAX_SAFE_INTEGER = 2**53 - 1


def _invoke_id_text(value):
    """A string as is, a finite number in its shortest JSON form; None (absent) for anything else."""
    if type(value) is str:
        return value
    if type(value) is int and -_MAX_SAFE_INTEGER <= value <= _MAX_SAFE_INTEGER:
        return str(value)
    if type(value) in (int, float):
        try:
            number = float(value)
        except OverflowError:
            return None
        return number_text(number) if number - number == 0 else None  # not NaN or Infinity
    return None


class ToolContext:
    """What one invoke knows besides its arguments.

    Attributes:
        tool: The tool's name.
        invoke_id: The host's ``context.invoke_id`` (or the legacy ``params.invoke_id``); "" when absent.
        deadline_ms: ``context.deadline_ms`` (Unix epoch milliseconds), else now + the tool's timeout.
    """

    def __init__(self, tool: str, invoke_id: str = "", deadline_ms: float | None = None, credentials: dict | None = None, channel=None) -> None:
        self.tool = tool
        self.invoke_id = invoke_id
        self.deadline_ms = time.time() * 1000 + DEFAULT_TIMEOUT_S * 1000 if deadline_ms is None else deadline_ms
        self._credentials = credentials or {}
        self._channel = channel
        self._host: HostClient | None = None
        self._finished = False  # set when the invoke is answered: progress after that is a mistake

    @classmethod
    def from_invoke(cls, tool: dict, params: dict, channel) -> ToolContext:
        context = params.get("context")
        if not isinstance(context, dict):
            context = {}
        invoke_id = _invoke_id_text(context.get("invoke_id"))
        if invoke_id is None:
            invoke_id = _invoke_id_text(params.get("invoke_id"))  # the legacy place
        deadline_ms = context.get("deadline_ms")
        if type(deadline_ms) in (int, float) and deadline_ms - deadline_ms == 0:
            deadline_ms = min(max(deadline_ms, 0), LATEST_DEADLINE_MS)
        else:
            timeout = tool.get("timeout")
            if type(timeout) not in (int, float) or not timeout > 0:
                timeout = DEFAULT_TIMEOUT_S
            deadline_ms = time.time() * 1000 + timeout * 1000
        credentials = context.get("credentials")
        return cls(tool["name"], invoke_id or "", deadline_ms, credentials if type(credentials) is dict else {}, channel)

    def credential(self, name: str) -> str | None:
        """``context.credentials[name]``, else the environment variable ``name``, else None (empty counts as absent)."""
        given = self._credentials.get(name)
        if isinstance(given, str) and given:
            return given
        return os.environ.get(name) or None

    @property
    def host(self) -> HostClient:
        """The host client: ``request``, ``sample``, ``agent``, ``embeddings``, ``image``, ``upload``,
        ``files``, ``storage`` and ``web`` (see :class:`HostClient`)."""
        if self._host is None:
            if self._channel is None:
                from .host import HostChannel

                self._channel = HostChannel({}, None, self.log)  # no host: every call is refused (not negotiated)
            self._host = self._channel.client(self.invoke_id, self.deadline_ms, self.log)
        return self._host

    def progress(self, data: dict, type: str = "progress") -> None:
        """Reports progress while the tool runs: sends the notification ``executa/progress`` with
        ``{context: {invoke_id}, type, data}``; Anna shows it on the invoke's job (and ``executa dev``
        prints it). Needs no capability.

        Args:
            data: A JSON object, e.g. ``{"step": 2, "of": 5}``.
            type: ``"progress"`` (the default) or ``"tool_update"``.

        Raises:
            RuntimeError: The invoke has already been answered.
            TypeError: ``data`` is not a dict, or ``type`` is neither of the two.
        """
        if self._finished:
            raise RuntimeError(
                f"progress: invoke {self.invoke_id!r} of tool {self.tool} has already been answered; report progress before the tool returns"
            )
        if type not in ("progress", "tool_update"):
            raise TypeError(f'progress: type must be "progress" or "tool_update", got {type!r}')
        if not isinstance(data, dict):
            raise TypeError(f"progress: data must be a JSON object (a dict), like {{'step': 2, 'of': 5}}; got {builtins_type(data).__name__}")
        if self._channel is not None:  # outside an invoke (a unit test) there is no host to tell
            self._channel.progress(self.invoke_id, type, data)

    def finish(self) -> None:
        """The invoke is being answered."""
        self._finished = True

    def log(self, *args) -> None:
        """A line on stderr, tagged with the tool and the invoke id."""
        tag = f"{self.tool} {self.invoke_id}" if self.invoke_id else self.tool
        sys.stderr.write(f"[{tag}] {' '.join(str(a) for a in args)}\n")
        sys.stderr.flush()
