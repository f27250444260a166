"""The ToolContext a tool receives as its keyword-only ``ctx``: invoke id, deadline, credentials,
host client, log."""

from __future__ import annotations

import os
import sys
import time

DEFAULT_TIMEOUT_S = 60


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
        self._host = None

    @classmethod
    def from_invoke(cls, tool: dict, params: dict, channel) -> ToolContext:
        context = params.get("context")
        if not isinstance(context, dict):
            context = {}
        invoke_id = context.get("invoke_id")
        if invoke_id is None:
            invoke_id = params.get("invoke_id")  # the legacy place
        if isinstance(invoke_id, bool) or not isinstance(invoke_id, (str, int, float)):
            invoke_id = ""
        elif isinstance(invoke_id, float) and invoke_id.is_integer():
            invoke_id = int(invoke_id)  # 7.0 is "7", as in every template
        deadline_ms = context.get("deadline_ms")
        if isinstance(deadline_ms, bool) or not isinstance(deadline_ms, (int, float)):
            timeout = tool.get("timeout")
            if isinstance(timeout, bool) or not isinstance(timeout, (int, float)):
                timeout = DEFAULT_TIMEOUT_S
            deadline_ms = time.time() * 1000 + timeout * 1000
        credentials = context.get("credentials")
        return cls(tool["name"], str(invoke_id), deadline_ms, credentials if isinstance(credentials, dict) else {}, channel)

    def credential(self, name: str) -> str | None:
        """``context.credentials[name]``, else the environment variable ``name``, else None (empty counts as absent)."""
        given = self._credentials.get(name)
        if isinstance(given, str) and given:
            return given
        return os.environ.get(name) or None

    @property
    def host(self):
        """The host client (:class:`HostClient`): ``request``, ``sample``, ``storage.get/set/delete/list``."""
        if self._host is None:
            if self._channel is None:
                from .host import HostChannel

                self._channel = HostChannel({}, None, self.log)  # no host: every call fails NOT_NEGOTIATED
            self._host = self._channel.client(self.invoke_id, self.deadline_ms)
        return self._host

    def log(self, *args) -> None:
        """A line on stderr, tagged with the tool and the invoke id."""
        tag = f"{self.tool} {self.invoke_id}" if self.invoke_id else self.tool
        sys.stderr.write(f"[{tag}] {' '.join(str(a) for a in args)}\n")
        sys.stderr.flush()
