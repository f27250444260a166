"""The Executa plugin runtime, vendored into this project (standard library only).

What it does, line by line, is create-executa's runtime contract: newline-delimited JSON-RPC 2.0
on stdin/stdout, ``describe`` / ``initialize`` / ``health`` / ``shutdown`` / ``invoke``, argument
checks against manifest.json, reverse requests to the host (``ctx.host``: every host service of
create-executa's docs/host-services.md), progress notifications (``ctx.progress``), results
inline up to the platform's 4 MiB limit, and clean stopping.

Public API::

    run(manifest_path=..., bindings=BINDINGS)   # or run(manifest={...}, bindings=...)
    @tool / @tool(timeout=10) / @tool(name="other_name")
    ToolError, HostError, WebError, ToolContext, with_display
    ctx.host: the host client (executa.client.HostClient)
    ctx.progress({...}, type="progress"): an executa/progress notification
"""

from .context import ToolContext
from .decorator import tool
from .display import with_display
from .errors import HostError, ToolError, WebError
from .run import run

__all__ = ["run", "tool", "ToolError", "HostError", "WebError", "ToolContext", "with_display"]
