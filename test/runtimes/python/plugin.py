"""The Python test plugin of the runtime vectors: templates/python's runtime (importable as the
package ``executa``) serving the test-only tools of test/runtimes/test-plugin.json, whose path is
the first argument. EXECUTA_TEST_CAPABILITIES (a JSON array) replaces its host_capabilities."""

import asyncio
import json
import os
import sys
import time

from executa import HostError, ToolError, WebError, run, with_display


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


def _bytes_of(args):
    """``args.text`` as UTF-8, or ``args.size`` bytes of x."""
    return args["text"].encode("utf-8") if isinstance(args.get("text"), str) else b"x" * int(args.get("size") or 0)


def _options(args, **names):
    """The helper's keyword options: each Python name -> the TypeScript option name it is read from, when given."""
    return {py: args[ts] for py, ts in names.items() if args.get(ts) is not None}


_SAMPLE = dict(
    max_tokens="maxTokens",
    system_prompt="systemPrompt",
    temperature="temperature",
    stop_sequences="stopSequences",
    model_preferences="modelPreferences",
    metadata="metadata",
)


def _sample_args(args, *extra):
    names = {**_SAMPLE, **{k: v for k, v in (("response_format", "responseFormat"), ("on_unsupported", "onUnsupported")) if k in extra}}
    return {"messages": args.get("messages"), "prompt": args.get("prompt"), **_options(args, **names)}


def _sampled(r):
    return {"text": r["text"], "structured_valid": r["structured_valid"], "downgraded": r["downgraded"], "parsed": r["parsed"]}


def _ran(run):
    return {"run_id": run["run_id"], "text": run["text"], "warnings": run["warnings"], "events": [f.get("event") for f in run["frames"]]}


_SCOPE = dict(scope="scope")

# Each `service` call: the helper it runs with `args` (TypeScript option names mapped to the helper's).
SERVICE_CALLS = {
    "sample": lambda h, a: _sampled(h.sample(**_sample_args(a, "response_format", "on_unsupported"))),
    "agent.complete": lambda h, a: _sampled(h.agent.complete(**_sample_args(a))),
    "agent.create": lambda h, a: {
        "uuid": h.agent.create(
            **_options(
                a,
                kind="kind",
                submode="submode",
                fixed_client_id="fixedClientId",
                label="label",
                quota_caps="quotaCaps",
                system_prompt="systemPrompt",
                ttl_seconds="ttlSeconds",
                inherit_host_tools="inheritHostTools",
                granted_tools="grantedTools",
            )
        ).uuid
    },
    "agent.run": lambda h, a: _ran(
        h.agent.session(a["uuid"]).run(
            a["content"], **_options(a, attachments="attachments", recursion_limit="recursionLimit", run_id="runId", system_prompt="systemPrompt")
        )
    ),
    "agent.cancel": lambda h, a: h.agent.session(a["uuid"]).cancel(a["runId"]),
    "agent.history": lambda h, a: h.agent.session(a["uuid"]).history(),
    "agent.refresh": lambda h, a: h.agent.session(a["uuid"]).refresh(**_options(a, ttl_seconds="ttlSeconds")),
    "agent.delete": lambda h, a: h.agent.session(a["uuid"]).delete(),
    "agent.list": lambda h, a: h.agent.list(**_options(a, include_expired="includeExpired", limit="limit")),
    "embeddings.create": lambda h, a: {"vectors": h.embeddings.create(a["input"], **_options(a, model="model"))["vectors"]},
    "image.generate": lambda h, a: h.image.generate(
        a["prompt"], **_options(a, n="n", size="size", reference_image_urls="referenceImageUrls", model_preferences="modelPreferences", metadata="metadata")
    ),
    "image.edit": lambda h, a: h.image.edit(
        a["imageUrl"], a["prompt"], **_options(a, mask_url="maskUrl", n="n", size="size", model_preferences="modelPreferences", metadata="metadata")
    ),
    "upload": lambda h, a: h.upload(
        _bytes_of(a), filename=a["filename"], mime_type=a["mimeType"], **_options(a, purpose="purpose", metadata="metadata")
    ),
    "files.upload": lambda h, a: h.files.upload(
        a["path"], _bytes_of(a), **_options(a, **_SCOPE, content_type="contentType", metadata="metadata")
    ),
    "files.downloadUrl": lambda h, a: h.files.download_url(a["path"], **_options(a, **_SCOPE, expires_in="expiresIn")),
    "files.list": lambda h, a: h.files.list(**_options(a, **_SCOPE, prefix="prefix", cursor="cursor", limit="limit")),
    "files.delete": lambda h, a: h.files.delete(a["path"], **_options(a, **_SCOPE)),
    "storage.get": lambda h, a: h.storage.get(a["key"], **_options(a, **_SCOPE)),
    "storage.set": lambda h, a: h.storage.set(a["key"], a.get("value"), **_options(a, **_SCOPE, if_match="ifMatch", ttl_seconds="ttlSeconds")),
    "storage.delete": lambda h, a: h.storage.delete(a["key"], **_options(a, **_SCOPE, if_match="ifMatch")),
    "storage.list": lambda h, a: h.storage.list(**_options(a, **_SCOPE, prefix="prefix", cursor="cursor", limit="limit", kind="kind")),
    "display": lambda h, a: with_display(a.get("data"), a.get("display")),
    "web.search": lambda h, a: h.web.search(
        a.get("query"),
        **_options(
            a,
            max_results="maxResults",
            search_depth="searchDepth",
            topic="topic",
            time_range="timeRange",
            region="region",
            include_domains="includeDomains",
            exclude_domains="excludeDomains",
        ),
    ),
    "web.fetch": lambda h, a: h.web.fetch(
        a.get("url"), **_options(a, urls="urls", format="format", max_chars="maxChars", fetch_timeout_ms="fetchTimeoutMs")
    ),
}

_kept = []  # the context progress.keep kept, for progress.late to report progress on after its invoke was answered


def _progress(ctx, a):
    ctx.progress(a.get("data"), **_options(a, type="type"))
    return {"sent": True}


def _keep(ctx):
    _kept.append(ctx)
    return {"kept": True}


def _late():
    _kept[-1].progress({"late": True})
    return {"sent": True}


# Calls that need the tool's context, not only its host client.
CONTEXT_CALLS = {"progress": _progress, "progress.keep": lambda ctx, a: _keep(ctx), "progress.late": lambda ctx, a: _late()}


def service(call, args=None, *, ctx):
    """The typed host-service helpers by name (docs/runtime-contract.md, the test tools): ``{result}``,
    or ``{error: {code, code_name, message}}`` for a HostError (or the display helper's plain error)."""
    if call in CONTEXT_CALLS:
        try:
            return {"result": CONTEXT_CALLS[call](ctx, args or {})}
        except (TypeError, RuntimeError) as err:
            return {"error": {"code": 0, "code_name": "ProgressError", "message": str(err)}}
    helper = SERVICE_CALLS.get(call)
    if helper is None:
        raise ToolError(f"service: no helper named {json.dumps(call)}")
    try:
        return {"result": helper(ctx.host, args or {})}
    except WebError as err:
        return {"error": {"code": err.code, "code_name": err.code_name, "error_code": err.error_code, "message": err.message}}
    except HostError as err:
        return {"error": {"code": err.code, "code_name": err.code_name, "message": err.message}}
    except (TypeError, ValueError) as err:
        if call != "display":
            raise
        return {"error": {"code": 0, "code_name": "TypeError", "message": str(err)}}


TOOLS = {name: fn for name, fn in globals().items() if callable(fn) and not name.startswith(("_", "run", "Tool", "Unprintable"))}
TOOLS["print"] = TOOLS.pop("print_")

if __name__ == "__main__":
    with open(sys.argv[1], encoding="utf-8") as f:
        manifest = json.load(f)
    if os.environ.get("EXECUTA_TEST_CAPABILITIES"):
        manifest["host_capabilities"] = json.loads(os.environ["EXECUTA_TEST_CAPABILITIES"])
    run(manifest=manifest, bindings={t["name"]: (lambda fn=TOOLS[t["name"]]: fn) for t in manifest["tools"]})
