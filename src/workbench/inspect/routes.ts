/**
 * The API of the inspect page: each route reads its JSON body, calls the Inspector, answers JSON.
 * No route takes a command or a path to run: the plugin is the one the command line named.
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import { HOST_PROTOCOLS, type HostProtocol } from "../workbench.js";
import { Body, HttpError, readJson, SECURITY_HEADERS, sendJson } from "./http.js";
import type { Inspector } from "./inspector.js";
import { editStorage, listStorage, readStorageFile, setRules } from "./mock-panel.js";
import { conformance, exportCandidates, exportFixture, exportTrace, importFixture } from "./session-export.js";
import type { SamplingKind } from "./wire.js";

type Handler = (inspector: Inspector, body: Body, url: URL, res: ServerResponse) => Promise<unknown> | unknown;

const SAMPLING_KINDS: readonly SamplingKind[] = ["canned", "echo", "rules", "manual"];

const GET: Record<string, Handler> = {
  "/api/state": (i) => i.state(),
  "/api/storage": (i) => listStorage(i.workbench.mockHost, (v) => i.credentials.redactValue(v)),
  "/api/export/candidates": (i) => exportCandidates(i),
  "/api/export/trace": (i, _b, _u, res) =>
    attachment(res, "application/json", "trace.json", JSON.stringify(exportTrace(i), null, 2)),
  "/api/storage/file": (i, _b, url, res) => {
    const bytes = readStorageFile(
      i.workbench.mockHost,
      url.searchParams.get("scope") ?? "",
      url.searchParams.get("path") ?? "",
    );
    return attachment(
      res,
      "application/octet-stream",
      (url.searchParams.get("path") ?? "file").split("/").pop()!,
      bytes,
    );
  },
};

const POST: Record<string, Handler> = {
  "/api/invoke": (i, b) => {
    const invokeId = b.optionalString("invokeId");
    if (invokeId !== undefined && !/^[A-Za-z0-9_-]{1,80}$/.test(invokeId))
      throw new HttpError(400, "invokeId must be 1 to 80 letters, digits, - or _");
    return i.invoke(b.string("tool"), b.object("arguments", { optional: true }) ?? {}, invokeId);
  },
  "/api/health": (i) => i.health(),
  "/api/describe": (i) => i.describe(),
  "/api/restart": async (i) => {
    await i.restart();
    return i.state().plugin;
  },
  "/api/credentials": (i, b) => ({ names: i.setCredentials(b.object("values")!) }),
  "/api/sampling": (i, b) => {
    const kind = b.string("kind") as SamplingKind;
    if (!SAMPLING_KINDS.includes(kind)) throw new HttpError(400, `kind must be one of ${SAMPLING_KINDS.join(", ")}`);
    return i.setSampling(kind, b.optionalString("text"));
  },
  "/api/rules": (i, b) => setRules(i, b.string("text")),
  "/api/manual": (i, b) => {
    const seq = b.integer("seq");
    const error = b.object("error", { optional: true });
    if (error && (typeof error.code !== "number" || !Number.isInteger(error.code) || typeof error.message !== "string"))
      throw new HttpError(400, "error must be {code: integer, message: string}");
    const text = b.optionalString("text");
    if (!error && text === undefined) throw new HttpError(400, "give the answer's text, or an error {code, message}");
    const reply = error
      ? {
          error: {
            code: error.code as number,
            message: error.message as string,
            ...(error.data !== undefined && { data: error.data }),
          },
        }
      : { text: text! };
    if (!i.manual.answer(seq, reply)) throw new HttpError(404, `request ${seq} is no longer waiting for an answer`);
    return { answered: seq };
  },
  "/api/host": (i, b) => {
    const protocol = b.optionalString("protocol");
    if (protocol !== undefined && !(HOST_PROTOCOLS as readonly string[]).includes(protocol))
      throw new HttpError(400, `protocol must be one of ${HOST_PROTOCOLS.map((p) => `"${p}"`).join(", ")}`);
    return i.setHost(protocol as HostProtocol | undefined, b.has("refused") ? b.stringList("refused") : undefined);
  },
  "/api/storage/kv-set": (i, b) => storageEdit(i, "kv-set", b),
  "/api/storage/kv-delete": (i, b) => storageEdit(i, "kv-delete", b),
  "/api/storage/file-write": (i, b) => storageEdit(i, "file-write", b),
  "/api/storage/file-delete": (i, b) => storageEdit(i, "file-delete", b),
  "/api/conformance": (i) => conformance(i),
  "/api/export/fixture": (i, b, _u, res) =>
    attachment(
      res,
      "application/x-ndjson",
      "session.jsonl",
      exportFixture(i, b.has("include") ? b.integerList("include") : undefined),
    ),
  "/api/import": (i, b) => importFixture(i, b.optionalString("name") ?? "fixture.jsonl", b.string("text")),
};

function storageEdit(i: Inspector, action: string, b: Body) {
  editStorage(i.workbench.mockHost, action, b);
  return listStorage(i.workbench.mockHost, (v) => i.credentials.redactValue(v));
}

const SENT = Symbol("sent");

function attachment(res: ServerResponse, type: string, name: string, body: string | Buffer): typeof SENT {
  res.writeHead(200, {
    ...SECURITY_HEADERS,
    "Content-Type": type,
    "Content-Length": Buffer.byteLength(body),
    "Content-Disposition": `attachment; filename="${name.replace(/[^\w.-]/g, "_")}"`,
  });
  res.end(body);
  return SENT;
}

/** Whether the path is an API route (the server answers 404 for the rest). */
export function isApi(pathname: string): boolean {
  return pathname.startsWith("/api/");
}

export async function handleApi(
  inspector: Inspector,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const table = req.method === "POST" ? POST : GET;
  const handler = Object.hasOwn(table, url.pathname) ? table[url.pathname] : undefined;
  if (!handler) throw new HttpError(404, `no ${req.method} ${url.pathname}`);
  const body = new Body(req.method === "POST" ? await readJson(req) : {});
  const result = await handler(inspector, body, url, res);
  if (result !== SENT) sendJson(res, 200, result ?? {});
}
