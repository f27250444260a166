/** The fuzz check: N seeded malformed or mutated frames, pipelined; each must get its exact answer. */
import { RpcError } from "../protocol/index.js";
import { PluginExited, within, type Response, type Session } from "../host/index.js";
import { frames, show, type CheckContext } from "./context.js";
import { generateCases, type FuzzCase } from "./fuzz-cases.js";
import { fail, pass, skip, type Check } from "./types.js";

export const FUZZ_CHECK_ID = "fuzz";
/** Frames in flight at once. */
const WINDOW = 128;
const SETTLE_MS = 300;
const STALL_MS = 10_000;

export interface FuzzStats {
  frames: number;
  ms: number;
  framesPerSecond: number;
  failures: string[];
}

function answerProblem(c: FuzzCase, r: Response): string | undefined {
  if (c.expect.kind !== "answer") return undefined;
  const codes = c.expect.codes;
  const code = (r.frame.error as { code?: unknown } | undefined)?.code;
  if (codes && !codes.includes(code as number)) return `${c.label}: expected error ${codes.join(" or ")}, got ${show(r.frame.error ?? { result: r.frame.result }, 160)}`;
  return undefined;
}

const lineText = (c: FuzzCase) => (typeof c.line === "string" ? c.line : `${c.line.toString("hex").slice(0, 12)}… (bytes)`).slice(0, 160);

/** Sends the cases through one session and checks every answer; used by the check and the bench. */
/** Replays cases one at a time, each followed by a fence, and returns the first one the plugin dies on. */
async function pinpoint(fresh: () => Session, cases: readonly FuzzCase[], from: number, to: number): Promise<number | undefined> {
  const session = fresh();
  try {
    for (let i = from; i <= to; i++) {
      session.sendRaw(cases[i]!.line);
      try {
        await session.request("executa.conformance/fuzz-fence", undefined, 2000);
      } catch {
        return i;
      }
    }
    return undefined;
  } finally {
    await session.dispose();
  }
}

export async function fuzzSession(session: Session, cases: readonly FuzzCase[], seed: number, fresh?: () => Session): Promise<FuzzStats> {
  const failures: string[] = [];
  const started = performance.now();
  const inFlight = new Set<Promise<unknown>>();
  const unanswered = new Set<number>();
  let expectedNull = { [RpcError.ParseError]: 0, [RpcError.InvalidRequest]: 0 } as Record<number, number>;
  let lastSent = -1;
  for (let i = 0; i < cases.length && session.alive; i++) {
    const c = cases[i]!;
    lastSent = i;
    if (c.expect.kind === "answer") {
      unanswered.add(i);
      const p = session.callRaw(c.line, c.expect.id, "fuzz").then(
        (r) => {
          unanswered.delete(i);
          const problem = answerProblem(c, r);
          if (problem && failures.length < 5) failures.push(`frame #${i} ${problem}\n      sent: ${lineText(c)}`);
        },
        () => undefined,
      );
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    } else {
      if (c.expect.kind === "null") expectedNull[c.expect.code] = (expectedNull[c.expect.code] ?? 0) + 1;
      session.sendRaw(c.line);
    }
    if (inFlight.size >= WINDOW) await Promise.race(inFlight);
    await session.drained();
  }
  await within(Promise.all(inFlight), STALL_MS);
  if (session.alive) {
    try {
      await session.request("executa.conformance/fuzz-fence", undefined, STALL_MS);
    } catch {
      // reported below
    }
    await new Promise((r) => setTimeout(r, SETTLE_MS));
  }
  const ms = performance.now() - started;
  if (!session.alive) {
    const from = Math.max(0, Math.min(lastSent, ...unanswered) - WINDOW);
    const culprit = fresh ? await pinpoint(fresh, cases, from, lastSent) : undefined;
    const how = `the plugin exited (${session.exit?.signal ?? `code ${session.exit?.code}`}) during the fuzz (seed ${seed})`;
    const err = session.stderr.trim().split("\n").slice(-2).join(" / ").slice(0, 300);
    if (culprit !== undefined) failures.unshift(`${how}; replayed alone, frame #${culprit} (${cases[culprit]!.label}) kills it:\n      sent: ${lineText(cases[culprit]!)}${err ? `\n      stderr: ${err}` : ""}`);
    else failures.unshift(`${how}, at or before frame #${lastSent}${err ? `\n      stderr: ${err}` : ""}`);
  } else if (inFlight.size > 0) {
    failures.push(`${inFlight.size} frame(s) with an id were never answered (seed ${seed})`);
  }
  const got: Record<number, number> = {};
  for (const f of session.nullIdResponses) {
    const code = (f.error as { code?: number } | undefined)?.code ?? 0;
    got[code] = (got[code] ?? 0) + 1;
  }
  for (const code of new Set([...Object.keys(expectedNull), ...Object.keys(got)].map(Number))) {
    const want = session.alive ? (expectedNull[code] ?? 0) : Math.min(expectedNull[code] ?? 0, got[code] ?? 0);
    if ((got[code] ?? 0) !== want) {
      const example = session.nullIdResponses.find((f) => (f.error as { code?: number } | undefined)?.code === code);
      failures.push(`expected ${want} answer(s) with id null and code ${code}, got ${got[code] ?? 0}${example ? ` (e.g. ${show(example, 160)})` : ""} (seed ${seed})`);
    }
  }
  if (session.unmatched.length) failures.push(`${session.unmatched.length} answer(s) carry ids nobody sent, e.g. ${show(session.unmatched[0], 160)}`);
  if (session.noise.length) failures.push(`stdout carried ${session.noise.length} line(s) that are not JSON-RPC frames, e.g. ${JSON.stringify(session.noise[0]!.line.slice(0, 120))}`);
  expectedNull = {};
  return { frames: lastSent + 1, ms, framesPerSecond: Math.round(((lastSent + 1) / ms) * 1000), failures };
}

export function fuzzCheck(count: number, seed: number): Check {
  return {
    id: FUZZ_CHECK_ID,
    description: "malformed and mutated frames (seeded) each get the right answer; the plugin never crashes or prints a non-JSON line",
    rule: "SPEC JSON-RPC errors and Transport: -32700 / -32600 with id null, -32601, -32602, no reply to notifications, stdout frames only",
    needs: ["alive"],
    async run(ctx: CheckContext) {
      if (!count) return skip("not requested (use --fuzz N)");
      const cases = generateCases(count, seed, ctx.tools);
      const session = ctx.session({ maxRecords: 200, recordChars: 200 });
      try {
        await session.request("executa.conformance/fuzz-start", undefined, 5000);
      } catch (error) {
        if (error instanceof PluginExited) return fail(`${error.message}${frames(session)}`);
      }
      const stats = await fuzzSession(session, cases, seed, () => ctx.session({ maxRecords: 50 }));
      if (stats.failures.length) return fail(`${stats.failures.join("\n  ")}\n  reproduce with --fuzz ${count} --seed ${seed}`);
      return pass(`${stats.frames} frames, ${stats.framesPerSecond} frames/s, seed ${seed}`);
    },
  };
}
