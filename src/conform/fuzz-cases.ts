/**
 * Seeded malformed and mutated frames, each with the answer the spec requires. The same seed
 * gives the same frames, so a failure is reproducible with `--seed`.
 */
import { RpcError, type ToolDefinition } from "../protocol/index.js";
import { validArguments, wrongValue } from "./args.js";

/** What a frame must get: an answer with this id (ideally with one of these error codes), an id-null error, or nothing. */
export type Expectation =
  | { kind: "answer"; id: string | number; codes?: number[] }
  | { kind: "null"; code: number }
  | { kind: "silent" };

export interface FuzzCase {
  line: string | Buffer;
  expect: Expectation;
  label: string;
}

/** mulberry32: small, fast, good enough to pick mutations. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GARBAGE = "abcxyzQRS<>!?#%&*()=+;:~^ \t|\\/@$";

export function generateCases(count: number, seed: number, tools: readonly ToolDefinition[]): FuzzCase[] {
  const random = rng(seed);
  const int = (n: number) => Math.floor(random() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  const word = () => Array.from({ length: 1 + int(12) }, () => "abcdefghijklmnopqrstuvwxyz_./"[int(29)]).join("");
  const cases: FuzzCase[] = [];
  const withParams = tools.filter((t) => (t.parameters ?? []).length > 0);
  const required = tools.filter((t) => (t.parameters ?? []).some((p) => p.required !== false));

  for (let i = 0; i < count; i++) {
    const id: string | number = random() < 0.5 ? 1_000_000 + i : `fz-${seed}-${i}`;
    const base = { jsonrpc: "2.0", id };
    const kind = int(17);
    let c: FuzzCase;
    switch (kind) {
      case 0: {
        c = {
          line: JSON.stringify({ ...base, method: `fz.${word()}` }),
          expect: { kind: "answer", id, codes: [RpcError.MethodNotFound] },
          label: "unknown method",
        };
        break;
      }
      case 1: {
        const full = JSON.stringify({
          ...base,
          method: pick(["describe", "health", "invoke", `fz.${word()}`]),
          params: { a: [1, 2, { b: "c" }] },
        });
        c = {
          line: full.slice(0, 1 + int(full.length - 1)),
          expect: { kind: "null", code: RpcError.ParseError },
          label: "truncated JSON",
        };
        break;
      }
      case 2: {
        let text: string;
        do
          text = Array.from({ length: 1 + int(40) }, () => GARBAGE[int(GARBAGE.length)])
            .join("")
            .trim();
        while (!text || isJson(text));
        c = { line: text, expect: { kind: "null", code: RpcError.ParseError }, label: "garbage" };
        break;
      }
      case 3: {
        const bytes = Buffer.concat([
          Buffer.from([0xff, 0xfe, 0x80 + int(0x40)]),
          Buffer.from(JSON.stringify({ ...base, method: "health" })),
        ]);
        c = { line: bytes, expect: { kind: "null", code: RpcError.ParseError }, label: "invalid UTF-8" };
        break;
      }
      case 4: {
        const value = pick([
          "42",
          "-1.5e3",
          '"describe"',
          "true",
          "false",
          "null",
          "[]",
          JSON.stringify([{ ...base, method: "health" }]),
        ]);
        c = {
          line: value,
          expect: { kind: "null", code: RpcError.InvalidRequest },
          label: `non-object JSON ${value.slice(0, 20)}`,
        };
        break;
      }
      case 5: {
        const jsonrpc = pick(["1.0", "2", 2, null, undefined]);
        const frame: Record<string, unknown> = { id, method: `fz.${word()}` };
        if (jsonrpc !== undefined) frame.jsonrpc = jsonrpc;
        c = {
          line: JSON.stringify(frame),
          expect: { kind: "answer", id, codes: [RpcError.InvalidRequest] },
          label: `jsonrpc ${JSON.stringify(jsonrpc)}`,
        };
        break;
      }
      case 6: {
        c = {
          line: JSON.stringify({ ...base, method: pick([1, null, {}, ["describe"], true]) }),
          expect: { kind: "answer", id, codes: [RpcError.InvalidRequest] },
          label: "non-string method",
        };
        break;
      }
      case 7: {
        c = {
          line: JSON.stringify({ jsonrpc: "2.0", id: pick([{ a: 1 }, [1], true, false]), method: "health" }),
          expect: { kind: "null", code: RpcError.InvalidRequest },
          label: "id of a wrong type",
        };
        break;
      }
      case 8: {
        c = {
          line: JSON.stringify({
            jsonrpc: "2.0",
            method: pick(["health", "invoke", `fz.${word()}`, "describe"]),
            params: { tool: `fz_${word()}` },
          }),
          expect: { kind: "silent" },
          label: "notification",
        };
        break;
      }
      case 9: {
        c = {
          line: JSON.stringify({
            ...base,
            method: "invoke",
            params: pick(["tool", 7, [], null, { arguments: {} }, { tool: 5 }]),
          }),
          expect: { kind: "answer", id, codes: [RpcError.InvalidParams, RpcError.InvalidRequest] },
          label: "invoke without a tool",
        };
        break;
      }
      case 10: {
        c = {
          line: JSON.stringify({ ...base, method: "invoke", params: { tool: `fz_${word()}`, arguments: {} } }),
          expect: { kind: "answer", id, codes: [RpcError.MethodNotFound] },
          label: "invoke unknown tool",
        };
        break;
      }
      case 11: {
        if (!withParams.length) continue;
        const tool = pick(withParams);
        const param = pick(tool.parameters!);
        const args = { ...validArguments(tool), [param.name]: wrongValue(param) };
        c = {
          line: JSON.stringify({ ...base, method: "invoke", params: { tool: tool.name, arguments: args } }),
          expect: { kind: "answer", id },
          label: `invoke ${tool.name} with ${param.name} mistyped`,
        };
        break;
      }
      case 12: {
        if (!required.length) continue;
        const tool = pick(required);
        const args = validArguments(tool);
        for (const p of tool.parameters!) if (p.required !== false) delete args[p.name];
        c = {
          line: JSON.stringify({ ...base, method: "invoke", params: { tool: tool.name, arguments: args } }),
          expect: { kind: "answer", id, codes: [RpcError.InvalidParams] },
          label: `invoke ${tool.name} without its required arguments`,
        };
        break;
      }
      case 13: {
        if (!tools.length) continue;
        c = {
          line: JSON.stringify({
            ...base,
            method: "invoke",
            params: { tool: pick(tools).name, arguments: pick(["x", 1, [1], true]) },
          }),
          expect: { kind: "answer", id, codes: [RpcError.InvalidParams] },
          label: "invoke with non-object arguments",
        };
        break;
      }
      case 14: {
        const pad = () => pick(["", " ", "\t", "  "]);
        c = {
          line: `${pad()}${JSON.stringify({ ...base, method: `fz.${word()}` })}${pad()}${pick(["", "\r"])}`,
          expect: { kind: "answer", id, codes: [RpcError.MethodNotFound] },
          label: "padded frame",
        };
        break;
      }
      case 15: {
        c = {
          line: JSON.stringify({ ...base, params: { x: 1 } }),
          expect: { kind: "answer", id, codes: [RpcError.InvalidRequest] },
          label: "object without method",
        };
        break;
      }
      default: {
        let nested: unknown = "deep";
        const levels = 10 + int(60);
        for (let d = 0; d < levels; d++) nested = random() < 0.5 ? [nested] : { k: nested };
        // The frame nests levels + 2 deep; beyond 64 the runtime contract answers -32602 (docs/runtime-contract.md).
        const codes = levels + 2 > 64 ? [RpcError.MethodNotFound, RpcError.InvalidParams] : [RpcError.MethodNotFound];
        c = {
          line: JSON.stringify({ ...base, method: `fz.${word()}`, params: { nested } }),
          expect: { kind: "answer", id, codes },
          label: "nested params",
        };
      }
    }
    cases.push(c);
  }
  // Rare skipped kinds (no tools) leave the list short; top it up with unknown methods.
  while (cases.length < count) {
    const id = `fz-${seed}-x${cases.length}`;
    cases.push({
      line: JSON.stringify({ jsonrpc: "2.0", id, method: `fz.fill${cases.length}` }),
      expect: { kind: "answer", id, codes: [RpcError.MethodNotFound] },
      label: "unknown method",
    });
  }
  return cases;
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
