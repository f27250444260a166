/**
 * Replay of recorded transcripts (JSONL, one exchange per line, written by `executa dev --record`):
 * `{"request": {"method", "params"?}, "expect": <pattern of the answer's result or error> | "none"}`.
 * Patterns match partially (see host/match.ts); "$any" matches anything.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { basename, join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import { matches, type Response } from "../host/index.js";
import { frames, show } from "./context.js";
import { fail, pass, type Check } from "./types.js";

export interface FixtureLine {
  request: { method: string; params?: Record<string, unknown> };
  expect: unknown;
}

export function readFixture(path: string): FixtureLine[] {
  return readFileSync(path, "utf8").split("\n").flatMap((line, i) => {
    if (!line.trim()) return [];
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new ExecutaError(`${path}:${i + 1}: not JSON: ${(error as Error).message}`);
    }
    const v = value as Partial<FixtureLine> & { kind?: string };
    if (v.kind === "meta") return [];
    if (!v.request || typeof v.request.method !== "string" || !("expect" in v)) {
      throw new ExecutaError(`${path}:${i + 1}: a fixture line needs "request" {"method", "params"} and "expect"`, { hint: "record one with executa dev --record FILE" });
    }
    return [v as FixtureLine];
  });
}

function fixtureFiles(path: string): string[] {
  if (!existsSync(path)) throw new ExecutaError(`no fixtures at ${path}`, { hint: "record one with executa dev --record fixtures/session.jsonl" });
  if (statSync(path).isFile()) return [path];
  return readdirSync(path).filter((f) => f.endsWith(".jsonl")).sort().map((f) => join(path, f));
}

export function fixtureChecks(path: string): Check[] {
  return fixtureFiles(path).map((file) => {
    const lines = readFixture(file);
    return {
      id: `fixtures/${basename(file, ".jsonl")}`,
      description: `replays ${basename(file)} (${lines.length} exchanges) and compares each answer with the recording`,
      rule: "the recorded transcript: each request's answer matches its expected pattern",
      needs: ["alive"],
      async run(ctx) {
        const session = ctx.session();
        for (const [i, line] of lines.entries()) {
          const { method, params } = line.request;
          if (line.expect === "none") {
            session.send({ jsonrpc: "2.0", method, ...(params && { params }) });
            continue;
          }
          let r: Response;
          if (method === "invoke" && params && typeof params.tool === "string") {
            const context = (params.context ?? {}) as { credentials?: Record<string, string> };
            r = await session.invoke(params.tool, params.arguments ?? {}, { timeoutMs: 60_000, ...(context.credentials && { credentials: context.credentials }) });
          } else if (method === "initialize") {
            r = await session.initialize(String((params as { protocolVersion?: unknown } | undefined)?.protocolVersion ?? "2.0"));
          } else {
            r = await session.request(method, params, 10_000);
          }
          const answer = "error" in r.frame ? { error: r.frame.error } : { result: r.frame.result };
          if (!matches(line.expect, answer)) {
            return fail(`${basename(file)} line ${i + 1} (${method}): expected ${show(line.expect, 400)}\n    got ${show(answer, 400)}${frames(session, 4)}`);
          }
        }
        return pass(`${lines.length} exchanges`);
      },
    } satisfies Check;
  });
}
