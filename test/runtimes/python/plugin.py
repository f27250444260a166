"""The Python test plugin of the runtime vectors: templates/python's runtime (importable as the
package ``executa``) serving the test-only tools of test/runtimes/test-plugin.json, whose path is
the first argument. EXECUTA_TEST_CAPABILITIES (a JSON array) replaces its host_capabilities."""

import asyncio
import json
import os
import sys
import time

from executa import ToolError, run


def echo(**args):
    return args


def nothing():
    return None


class Unprintable(Exception):
    """An exception that cannot even be described."""

    def __str__(self):
        raise RuntimeError("no str for you")

    def __repr__(self):
        raise RuntimeError("no repr for you")


def fail(kind):
    if kind == "tool":
        raise ToolError("it failed as asked")
    if kind == "crash":
        raise RuntimeError("boom")
    if kind == "hostile":
        raise Unprintable()

    async def hostile_async():
        raise Unprintable()

    return hostile_async()


def nan(which):
    return {"value": {"nan": float("nan"), "inf": float("inf"), "-inf": float("-inf")}[which]}


def slow(ms):
    time.sleep(ms / 1000)
    return {"slept": ms}


async def slow_async(ms):
    await asyncio.sleep(ms / 1000)
    return {"slept": ms}


def big(bytes):
    return "x" * bytes


def size(text):
    return {"bytes": len(text.encode("utf-8"))}


def credential(name, *, ctx):
    return {"value": ctx.credential(name)}


def context(*, ctx):
    return {"tool": ctx.tool, "invoke_id": ctx.invoke_id, "deadline_ms": ctx.deadline_ms}


def sample(prompt, *, ctx):
    return ctx.host.sample(prompt=prompt)


def storage(key, value, *, ctx):
    written = ctx.host.storage.set(key, value)
    return {"set": written, "get": ctx.host.storage.get(key)}


def host_call(method, params=None, timeout_ms=None, *, ctx):
    return ctx.host.request(method, params, None if timeout_ms is None else timeout_ms / 1000)


def print_():
    print("print: print()")
    sys.stdout.write("print: sys.stdout.write\n")
    sys.stdout.flush()
    os.write(1, b"print: os.write(1)\n")
    return {"ok": True}


def lone_surrogate():
    return {"text": "a\ud800b"}


def service(call, args=None, *, ctx):
    """The typed host-service helpers by name (docs/runtime-contract.md, the test tools)."""
    raise ToolError(f"service: no helper named {json.dumps(call)} yet")


TOOLS = {name: fn for name, fn in globals().items() if callable(fn) and not name.startswith(("_", "run", "Tool", "Unprintable"))}
TOOLS["print"] = TOOLS.pop("print_")

if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        manifest = json.load(f)
    if os.environ.get("EXECUTA_TEST_CAPABILITIES"):
        manifest["host_capabilities"] = json.loads(os.environ["EXECUTA_TEST_CAPABILITIES"])
    run(manifest=manifest, bindings={t["name"]: (lambda fn=TOOLS[t["name"]]: fn) for t in manifest["tools"]})
