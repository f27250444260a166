/**
 * Test-only plugins on each template runtime (copied from templates/<lang> at test time): a tool
 * `host_call` that sends any reverse request through the runtime's generic host request and
 * returns the result or the error, and a tool `http_put` that PUTs bytes with the language's own
 * HTTP client (for presigned URLs). The manifest declares every host capability.
 */
import { cpSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { HOST_CAPABILITIES } from "../../../src/protocol/index.js";
import type { LaunchSpec } from "../../../src/host/index.js";
import { REPO_ROOT } from "../helpers.js";

const TEMPLATES = join(REPO_ROOT, "templates");

export const PROBE_MANIFEST = {
  name: "mock-host-probe",
  display_name: "Mock host probe",
  version: "1.0.0",
  description: "Sends any reverse request to the host (test only).",
  host_capabilities: Object.keys(HOST_CAPABILITIES),
  tools: [
    {
      name: "host_call",
      description: "Send one reverse request and return its result or error.",
      parameters: [
        { name: "method", type: "string", description: "The reverse-request method.", required: true },
        { name: "params", type: "object", description: "Its params.", required: false },
      ],
    },
    {
      name: "negotiate_upload",
      description: "host/uploadFile negotiate, confirm too early, PUT, confirm: one invoke.",
      parameters: [{ name: "body_b64", type: "string", description: "The bytes, base64.", required: true }],
    },
    {
      name: "http_put",
      description: "PUT bytes to a URL with the language's HTTP client.",
      parameters: [
        { name: "url", type: "string", description: "The URL.", required: true },
        { name: "body_b64", type: "string", description: "The bytes, base64.", required: true },
        { name: "headers", type: "object", description: "Request headers.", required: false },
      ],
    },
  ],
};

export type ProbeLanguage = "ts" | "python" | "go";

function project(lang: ProbeLanguage): string {
  const dir = mkdtempSync(join(tmpdir(), `executa-probe-${lang}-`));
  writeFileSync(join(dir, "manifest.json"), JSON.stringify(PROBE_MANIFEST, null, 2));
  return dir;
}

function tsProbe(): LaunchSpec {
  const dir = project("ts");
  cpSync(join(TEMPLATES, "ts", "src", "executa"), join(dir, "src", "executa"), { recursive: true });
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: "mock-host-probe", version: "1.0.0", type: "module", private: true }),
  );
  writeFileSync(
    join(dir, "src", "tools.ts"),
    `import { HostError, type ToolContext } from "./executa/index.js";

export async function host_call({ method, params }: { method: string; params?: Record<string, unknown> }, ctx: ToolContext) {
  try {
    return { ok: true, result: await ctx.host.request(method, params ?? {}) };
  } catch (err) {
    if (err instanceof HostError) return { ok: false, code: err.code, message: err.message, data: err.data ?? null };
    throw err;
  }
}

export async function negotiate_upload({ body_b64 }: { body_b64: string }, ctx: ToolContext) {
  const bytes = Buffer.from(body_b64, "base64");
  const offer = (await ctx.host.request("host/uploadFile", { mode: "negotiate", filename: "blob.bin", mime_type: "application/octet-stream", size_bytes: bytes.length })) as { put_url: string; headers: Record<string, string>; r2_key: string };
  const early = await ctx.host.request("host/uploadFile", { mode: "confirm", r2_key: offer.r2_key }).then(() => 0, (err: HostError) => err.code);
  const put = await fetch(offer.put_url, { method: "PUT", headers: offer.headers, body: bytes });
  const confirmed = await ctx.host.request("host/uploadFile", { mode: "confirm", r2_key: offer.r2_key });
  return { r2_key: offer.r2_key, early_confirm_code: early, put_status: put.status, confirmed };
}

export async function http_put({ url, body_b64, headers }: { url: string; body_b64: string; headers?: Record<string, string> }) {
  const r = await fetch(url, { method: "PUT", headers: headers ?? {}, body: Buffer.from(body_b64, "base64") });
  return { status: r.status, etag: r.headers.get("etag"), body: await r.text() };
}
`,
  );
  writeFileSync(
    join(dir, "src", "main.ts"),
    `import manifest from "../manifest.json" with { type: "json" };
import { run, type Bindings } from "./executa/index.js";

const bindings: Bindings = {
  host_call: { style: "args", load: async () => (await import("./tools.js")).host_call },
  negotiate_upload: { style: "args", load: async () => (await import("./tools.js")).negotiate_upload },
  http_put: { style: "args", load: async () => (await import("./tools.js")).http_put },
};

run({ manifest, bindings });
`,
  );
  const entry = join(dir, "src", "main.ts");
  return { command: process.execPath, args: [entry], cwd: dir, tsEntry: entry };
}

function pythonProbe(): LaunchSpec {
  const dir = project("python");
  const pkg = join(dir, "mock_probe");
  cpSync(join(TEMPLATES, "python", "__pyModule__", "executa"), join(pkg, "executa"), { recursive: true });
  cpSync(join(TEMPLATES, "python", "__pyModule__", "__main__.py"), join(pkg, "__main__.py"));
  writeFileSync(join(pkg, "__init__.py"), "");
  writeFileSync(
    join(pkg, "tools.py"),
    `import base64
import urllib.error
import urllib.request

from .executa import HostError


def host_call(method: str, params: dict = None, *, ctx) -> dict:
    try:
        return {"ok": True, "result": ctx.host.request(method, params or {})}
    except HostError as err:
        return {"ok": False, "code": err.code, "message": err.message, "data": err.data}


def negotiate_upload(body_b64: str, *, ctx) -> dict:
    data = base64.b64decode(body_b64)
    offer = ctx.host.request("host/uploadFile", {"mode": "negotiate", "filename": "blob.bin", "mime_type": "application/octet-stream", "size_bytes": len(data)})
    try:
        ctx.host.request("host/uploadFile", {"mode": "confirm", "r2_key": offer["r2_key"]})
        early = 0
    except HostError as err:
        early = err.code
    put = http_put(offer["put_url"], body_b64, offer["headers"])
    confirmed = ctx.host.request("host/uploadFile", {"mode": "confirm", "r2_key": offer["r2_key"]})
    return {"r2_key": offer["r2_key"], "early_confirm_code": early, "put_status": put["status"], "confirmed": confirmed}


def http_put(url: str, body_b64: str, headers: dict = None) -> dict:
    request = urllib.request.Request(url, data=base64.b64decode(body_b64), method="PUT", headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return {"status": response.status, "etag": response.headers.get("ETag"), "body": response.read().decode()}
    except urllib.error.HTTPError as err:
        return {"status": err.code, "etag": None, "body": err.read().decode()}
`,
  );
  writeFileSync(
    join(pkg, "executa_bindings.py"),
    `def _tools():
    from . import tools

    return tools


BINDINGS = {
    "host_call": lambda: _tools().host_call,
    "negotiate_upload": lambda: _tools().negotiate_upload,
    "http_put": lambda: _tools().http_put,
}
`,
  );
  return { command: "python3", args: ["-m", "mock_probe"], cwd: dir };
}

function goProbe(): LaunchSpec {
  const dir = project("go");
  cpSync(join(TEMPLATES, "go", "internal", "executa"), join(dir, "internal", "executa"), {
    recursive: true,
    filter: (src) => !/_test\.go(\.hbs)?$|executatest/.test(src),
  });
  writeFileSync(join(dir, "go.mod"), "module mockprobe\n\ngo 1.21\n");
  writeFileSync(
    join(dir, "main.go"),
    `package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"

	"mockprobe/internal/executa"
)

//go:embed manifest.json
var manifestJSON []byte

type HostCallArgs struct {
	Method string         \`json:"method"\`
	Params map[string]any \`json:"params"\`
}

func HostCall(ctx context.Context, a HostCallArgs) (map[string]any, error) {
	raw, err := executa.FromContext(ctx).Host.Request(ctx, a.Method, a.Params)
	if err != nil {
		var he *executa.HostError
		if errors.As(err, &he) {
			data := json.RawMessage("null")
			if len(he.Data) > 0 {
				data = he.Data
			}
			return map[string]any{"ok": false, "code": he.Code, "message": he.Message, "data": data}, nil
		}
		return nil, err
	}
	return map[string]any{"ok": true, "result": raw}, nil
}

type HTTPPutArgs struct {
	URL     string            \`json:"url"\`
	BodyB64 string            \`json:"body_b64"\`
	Headers map[string]string \`json:"headers"\`
}

func HTTPPut(ctx context.Context, a HTTPPutArgs) (map[string]any, error) {
	body, err := base64.StdEncoding.DecodeString(a.BodyB64)
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPut, a.URL, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, v := range a.Headers {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	text, _ := io.ReadAll(res.Body)
	var etag any
	if e := res.Header.Get("ETag"); e != "" {
		etag = e
	}
	return map[string]any{"status": res.StatusCode, "etag": etag, "body": string(text)}, nil
}

type NegotiateArgs struct {
	BodyB64 string \`json:"body_b64"\`
}

func NegotiateUpload(ctx context.Context, a NegotiateArgs) (map[string]any, error) {
	host := executa.FromContext(ctx).Host
	body, err := base64.StdEncoding.DecodeString(a.BodyB64)
	if err != nil {
		return nil, err
	}
	raw, err := host.Request(ctx, "host/uploadFile", map[string]any{"mode": "negotiate", "filename": "blob.bin", "mime_type": "application/octet-stream", "size_bytes": len(body)})
	if err != nil {
		return nil, err
	}
	var offer struct {
		PutURL  string            \`json:"put_url"\`
		Headers map[string]string \`json:"headers"\`
		R2Key   string            \`json:"r2_key"\`
	}
	if err := json.Unmarshal(raw, &offer); err != nil {
		return nil, err
	}
	early := 0
	if _, err := host.Request(ctx, "host/uploadFile", map[string]any{"mode": "confirm", "r2_key": offer.R2Key}); err != nil {
		var he *executa.HostError
		if errors.As(err, &he) {
			early = he.Code
		}
	}
	put, err := HTTPPut(ctx, HTTPPutArgs{URL: offer.PutURL, BodyB64: a.BodyB64, Headers: offer.Headers})
	if err != nil {
		return nil, err
	}
	confirmed, err := host.Request(ctx, "host/uploadFile", map[string]any{"mode": "confirm", "r2_key": offer.R2Key})
	if err != nil {
		return nil, err
	}
	return map[string]any{"r2_key": offer.R2Key, "early_confirm_code": early, "put_status": put["status"], "confirmed": confirmed}, nil
}

var bindings = executa.Bindings{"host_call": executa.Bind(HostCall), "negotiate_upload": executa.Bind(NegotiateUpload), "http_put": executa.Bind(HTTPPut)}

func main() { os.Exit(executa.Run(manifestJSON, bindings)) }
`,
  );
  return { command: "go", args: ["run", "."], cwd: dir };
}

export const PROBES: Record<ProbeLanguage, () => LaunchSpec> = { ts: tsProbe, python: pythonProbe, go: goProbe };
