/** The fuzz check: N seeded malformed or mutated frames, pipelined; each must get its exact answer. */
import { PluginExited, within, type Response, type Session } from "../host/index.js";
import { describeStray, frames, show, type CheckContext } from "./context.js";
import { generateCases, type FuzzCase } from "./fuzz-cases.js";
import { Rule } from "./rules.js";
import { Findings, skip, type Check } from "./types.js";

export const FUZZ_CHECK_ID = "fuzz";
/** Frames in flight at once. */
const WINDOW = 128;
const SETTLE_MS = 300;
const STALL_MS = 10_000;

export interface FuzzStats {
  frames: number;
  ms: number;
  framesPerSecond: number;
  /** Broken MUSTs (a crash, a request never answered, a reply to a notification, a wrong id). */
  failures: string[];
  /** Advice: wrong error codes, lines that are not requests left unanswered. */
  warnings: string[];
  /** The findings, each with its rule. */
  findings: Findings;
}

function answerProblem(c: FuzzCase, r: Response): string | undefined {
  if (c.expect.kind !== "answer") return undefined;
  const codes = c.expect.codes;
  const code = (r.frame.error as { code?: unknown } | undefined)?.code;
  if (codes && !codes.includes(code as number))
    return `${c.label}: expected error ${codes.join(" or ")}, got ${show(r.frame.error ?? { result: r.frame.result }, 160)}`;
  return undefined;
}

const lineText = (c: FuzzCase) =>
  (typeof c.line === "string" ? c.line : `${c.line.toString("hex").slice(0, 12)}… (bytes)`).slice(0, 160);

/** Sends the cases through one session and checks every answer; used by the check and the bench. */
/** Replays cases one at a time, each followed by a fence, and returns the first one the plugin dies on. */
async function pinpoint(
  fresh: () => Session,
  cases: readonly FuzzCase[],
  from: number,
  to: number,
): Promise<number | undefined> {
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

export async function fuzzSession(
  session: Session,
  cases: readonly FuzzCase[],
  seed: number,
  fresh?: () => Session,
): Promise<FuzzStats> {
  const failures: string[] = [];
  const warnings: string[] = [];
  const findings = new Findings();
  const broke = (message: string, rule: string) => {
    failures.push(message);
    findings.fail(message, rule);
  };
  const advised = (message: string, rule: string) => {
    warnings.push(message);
    findings.warn(message, rule);
  };
  const started = performance.now();
  const inFlight = new Set<Promise<unknown>>();
  const unanswered = new Set<number>();
  let expectedNull = 0;
  let wrongCodes = 0;
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
          if (problem && wrongCodes++ < 5)
            advised(`frame #${i} ${problem}\n      sent: ${lineText(c)}`, Rule.errorCodes);
        },
        () => undefined,
      );
      inFlight.add(p);
      void p.finally(() => inFlight.delete(p));
    } else {
      if (c.expect.kind === "null") expectedNull++;
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
    if (culprit !== undefined)
      broke(
        `${how}; replayed alone, frame #${culprit} (${cases[culprit]!.label}) kills it:\n      sent: ${lineText(cases[culprit]!)}${err ? `\n      stderr: ${err}` : ""}`,
        Rule.keepReading,
      );
    else broke(`${how}, at or before frame #${lastSent}${err ? `\n      stderr: ${err}` : ""}`, Rule.keepReading);
  } else if (unanswered.size > 0) {
    const first = [...unanswered][0]!;
    broke(
      `${unanswered.size} frame(s) with an id were never answered (seed ${seed}), e.g. frame #${first} (${cases[first]!.label}): ${lineText(cases[first]!)}`,
      Rule.reply,
    );
  }
  const nulls = [...session.nullIdCodes.values()].reduce((a, b) => a + b, 0);
  const want = session.alive ? expectedNull : Math.min(expectedNull, nulls);
  const example = () => session.strays.find((s) => s.kind === "null-id");
  if (nulls > want)
    broke(
      `${nulls} answer(s) with id null for ${want} line(s) that warrant one: the rest answer notifications or requests that had an id (seed ${seed}), e.g. ${show(example()?.frame, 160)}`,
      Rule.noNotificationReply,
    );
  else if (nulls < want)
    advised(
      `${want - nulls} of ${want} line(s) that are not requests (bad JSON, not an object, a bad id) got no answer with id null (seed ${seed})`,
      Rule.errorCodes,
    );
  const wrongIds = session.strays.filter((s) => s.kind !== "null-id");
  if (wrongIds.length)
    broke(
      `${session.strayCount - nulls} answer(s) carry no id or an id nobody sent, e.g. ${describeStray(wrongIds[0]!)}`,
      Rule.responseId,
    );
  if (session.noiseCount)
    broke(
      `stdout carried ${session.noiseCount} line(s) that are not JSON-RPC frames, e.g. ${JSON.stringify(session.noise[0]!.line.slice(0, 120))}`,
      Rule.stdoutFrames,
    );
  return {
    frames: lastSent + 1,
    ms,
    framesPerSecond: Math.round(((lastSent + 1) / ms) * 1000),
    failures,
    warnings,
    findings,
  };
}

export function fuzzCheck(count: number, seed: number): Check {
  return {
    id: FUZZ_CHECK_ID,
    description:
      "malformed and mutated frames (seeded) each get the right answer; the plugin never crashes or prints a non-JSON line",
    rule: "SPEC JSON-RPC errors and Transport: -32700 / -32600 with id null, -32601, -32602, no reply to notifications, stdout frames only",
    needs: ["alive"],
    async run(ctx: CheckContext) {
      if (!count) return skip("not requested (use --fuzz N)");
      const cases = generateCases(count, seed, ctx.tools);
      const session = ctx.session({ maxRecords: 200, recordChars: 200 });
      try {
        // As the host does before any invoke (a v1 plugin answers -32601 and stays on v1).
        await session.initialize();
      } catch (error) {
        if (error instanceof PluginExited)
          return { status: "fail", message: `${error.message}${frames(session)}`, rule: Rule.keepReading };
      }
      const stats = await fuzzSession(session, cases, seed, () => ctx.session({ maxRecords: 50 }));
      return stats.findings.outcome(
        `${stats.frames} frames, ${stats.framesPerSecond} frames/s, seed ${seed}`,
        `\n  reproduce with --fuzz ${count} --seed ${seed}`,
      );
    },
  };
}
