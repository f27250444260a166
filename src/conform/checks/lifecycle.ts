/** describe, staying alive, and stopping on EOF and SIGTERM. */
import {
  canonicalManifestJson,
  formatDiagnostic,
  Timeouts,
  validateManifest,
  type Diagnostic,
} from "../../protocol/index.js";
import { describeExit, type Response, type Session } from "../../host/index.js";
import { validArguments } from "../args.js";
import { frames, show } from "../context.js";
import { Rule } from "../rules.js";
import { fail, Findings, pass, skip, warn, type Check } from "../types.js";

/** A request every plugin answers fast: an unknown method (answered -32601, or anything else). */
export const PING = "executa.conformance/ping";

const SPEC_REQUIRED_PATHS = [
  /^\$$/,
  /^\$\.version$/,
  /^\$\.description$/,
  /^\$\.tools$/,
  /^\$\.tools\[\d+\]$/,
  /^\$\.tools\[\d+\]\.description$/,
  /^\$\.tools\[\d+\]\.parameters$/,
  /^\$\.tools\[\d+\]\.parameters\[\d+\](\.name|\.type)?$/,
];

/** Validator findings listed one by one in the describe check's message; the rest are counted. */
const SHOWN_DIAGNOSTICS = 20;

/** Whether a validator error breaks a field the spec requires (the rest is the reference's advice). */
function breaksSpec(d: Diagnostic): boolean {
  const path = d.path ?? "";
  if (/^\$\.tools\[\d+\]\.name$/.test(path)) return !/does not match/.test(d.message);
  return SPEC_REQUIRED_PATHS.some((p) => p.test(path));
}

export const describeCheck: Check = {
  id: "describe",
  description: `describe answers within ${Timeouts.describeMs / 1000} s with a manifest that passes the manifest validator`,
  rule: "SPEC Methods/describe and Default timeouts: describe 5 s, not configurable; the result is the bare manifest",
  needs: [],
  async run(ctx) {
    const { describe, session } = ctx.probe;
    if (describe.error || !describe.frame)
      return fail(`describe got no answer: ${describe.error ?? "none"}${frames(session)}`, Rule.describeTimeout);
    if (describe.file?.error)
      return fail(
        `describe was answered by a file-transport pointer the host could not accept: ${describe.file.error}`,
        Rule.fileTransport,
      );
    if (describe.timedOut) {
      return fail(
        `describe answered after ${((describe.ms ?? 0) / 1000).toFixed(1)} s; the Agent waits ${Timeouts.describeMs / 1000} s and then gives up on the plugin${frames(session, 4)}`,
        Rule.describeTimeout,
      );
    }
    if ("error" in describe.frame)
      return fail(
        `describe answered an error instead of the manifest: ${show(describe.frame.error)}${frames(session, 4)}`,
        Rule.manifestFields,
      );
    const result = describe.frame.result;
    if (
      result &&
      typeof result === "object" &&
      !Array.isArray(result) &&
      "manifest" in result &&
      !("tools" in result)
    ) {
      return fail(
        `describe wrapped the manifest in {"manifest": ...}; the result must be the bare manifest (the host reads name, tools ... at the top)`,
        Rule.manifestFields,
      );
    }
    const diagnostics = validateManifest(result, { source: "describe" });
    const f = new Findings();
    const errors = diagnostics.filter((x) => x.severity === "error");
    for (const d of errors.slice(0, SHOWN_DIAGNOSTICS)) {
      if (d.path === "$.name")
        f.warn(
          `the manifest has no name: the host identifies a plugin by its tool_id, but tools that read the manifest (and older hosts) expect one`,
          Rule.manifestName,
        );
      else if (breaksSpec(d)) f.fail(formatDiagnostic(d), Rule.manifestFields);
      else f.warn(formatDiagnostic(d), Rule.manifestAdvice);
    }
    const unshown = errors.slice(SHOWN_DIAGNOSTICS);
    if (unshown.some(breaksSpec)) f.fail(`... and ${unshown.length} more error(s)`, Rule.manifestFields);
    else if (unshown.length) f.warn(`... and ${unshown.length} more error(s)`, Rule.manifestAdvice);
    const notes = diagnostics.filter((d) => d.severity === "warning");
    const shownNotes = notes.slice(0, SHOWN_DIAGNOSTICS).map(formatDiagnostic).join("; ");
    return f.outcome(
      `${describe.ms} ms${notes.length ? `; ${notes.length} note(s): ${shownNotes}${notes.length > SHOWN_DIAGNOSTICS ? "; ..." : ""}` : ""}`,
    );
  },
};

export function manifestTextCheck(expected: string, defaultName?: string): Check {
  return {
    id: "describe.manifest-text",
    description: `the describe result equals manifest.json byte for byte (canonical form${defaultName ? `; without a name, named ${defaultName}` : ""})`,
    rule: "contract: describe returns manifest.json exactly as committed",
    needs: ["manifest"],
    async run(ctx) {
      const result = ctx.probe.describe.frame?.result;
      const named =
        defaultName && result && typeof result === "object" && !Array.isArray(result) && !("name" in result)
          ? { name: defaultName, ...result }
          : result;
      const actual = canonicalManifestJson(named);
      if (actual === expected) return pass();
      const a = actual.split("\n");
      const e = expected.split("\n");
      const line = a.findIndex((l, i) => l !== e[i]);
      return fail(
        `describe differs from manifest.json at line ${line + 1}:\n    expected: ${e[line] ?? "(end of file)"}\n    describe: ${a[line] ?? "(end of output)"}\n  (run \`executa manifest\`, then build again)`,
      );
    },
  };
}

export const aliveCheck: Check = {
  id: "lifecycle.alive",
  description: "the process is still running after a response and answers the next request",
  rule: Rule.keepReading,
  needs: [],
  async run(ctx) {
    if (!ctx.probe.describe.frame)
      return skip("describe never answered, so there was no response to stay alive after (see describe)");
    return ctx.probe.alive.ok
      ? pass()
      : fail(ctx.probe.alive.message ?? "the plugin did not stay alive", Rule.keepReading);
  },
};

async function ready(session: Session, waitMs: number): Promise<string | undefined> {
  try {
    await session.request(PING, undefined, waitMs);
    return undefined;
  } catch (error) {
    return `${(error as Error).message}${frames(session)}`;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** While the plugin still writes to stdout (say, a big answer), EOF's grace is extended up to this. */
const EOF_BUSY_CAP_MS = 30_000;

export const eofCheck: Check = {
  id: "lifecycle.eof",
  description: `answers every request still in flight when stdin closes, then exits 0 within ${Timeouts.sigtermGraceMs / 1000} s`,
  rule: `${Rule.reply} ${Rule.eofExit}`,
  needs: ["alive"],
  async run(ctx) {
    const session = await ctx.invokingSession();
    const inFlight: { label: string; promise: Promise<Response>; answered?: boolean }[] = [
      { label: "describe", promise: session.call("describe") },
      { label: "an unknown method", promise: session.call(PING) },
      ...ctx.tools.map((tool) => ({
        label: `invoke ${tool.name}`,
        promise: session.callInvoke(tool.name, validArguments(tool), { credentials: ctx.credentials() }).promise,
      })),
    ];
    for (const r of inFlight)
      r.promise.then(
        () => (r.answered = true),
        () => undefined,
      );
    const closed = performance.now();
    const closedAt = session.now();
    session.closeStdin();
    const grace = closed + ctx.waits.sigtermGraceMs;
    for (;;) {
      await sleep(50);
      const now = performance.now();
      if (!session.alive && session.exit) break;
      if (now < grace) continue;
      const busy = session.now() - session.lastStdoutAt < 1000 && now < closed + EOF_BUSY_CAP_MS;
      if (!busy) break;
    }
    await session.waitExit(100);
    // An answer read before the exit may still be settling (a file-transport pointer is checked off the event loop).
    await Promise.race([Promise.allSettled(inFlight.map((r) => r.promise)), sleep(2000)]);
    const f = new Findings();
    const lost = inFlight.filter((r) => !r.answered);
    if (lost.length) {
      const how = session.exit
        ? `the plugin exited (${describeExit(session.exit)})`
        : `the plugin was still running ${Math.round((performance.now() - closed) / 1000)} s later`;
      f.fail(
        `${lost.length} of ${inFlight.length} requests in flight when stdin closed were never answered (${lost.map((r) => r.label).join(", ")}); ${how}. A plugin must answer what it read before it exits${frames(session, 6)}`,
        Rule.reply,
      );
    }
    const exit = session.exit;
    if (!exit)
      f.warn(
        `still running ${Timeouts.sigtermGraceMs / 1000} s after stdin closed; stdin EOF is the Agent's request to shut down`,
        Rule.eofExit,
      );
    else if (exit.code !== 0) f.warn(`exited with ${describeExit(exit)} on EOF, expected exit code 0`, Rule.eofExit);
    return f.outcome(
      `answered ${inFlight.length} in-flight request(s), exited 0 ${Math.round((exit?.t ?? closedAt) - closedAt)} ms after EOF`,
    );
  },
};

export const sigtermCheck: Check = {
  id: "lifecycle.sigterm",
  description: `exits 0 within ${Timeouts.sigtermGraceMs / 1000} s of SIGTERM`,
  rule: Rule.sigterm,
  needs: ["alive"],
  async run(ctx) {
    if (process.platform === "win32") return skip("Windows has no SIGTERM");
    const session = ctx.session();
    const notReady = await ready(session, ctx.waits.describeMs);
    if (notReady)
      return fail(
        `the plugin did not answer before SIGTERM: ${notReady}`,
        session.alive ? Rule.reply : Rule.keepReading,
      );
    const started = performance.now();
    const { exit, killed } = await session.terminate(ctx.waits.sigtermGraceMs);
    if (killed)
      return warn(
        `ignored SIGTERM: still running ${Timeouts.sigtermGraceMs / 1000} s later, so the Agent would SIGKILL it (in-flight work and unflushed output lost)${frames(session, 4)}`,
        Rule.sigterm,
      );
    if (exit?.signal === "SIGTERM")
      return warn(
        "died of SIGTERM's default action instead of handling it (no flush, no clean exit 0); install a SIGTERM handler that stops reading and exits 0",
        Rule.sigterm,
      );
    if (exit?.code !== 0)
      return warn(
        `exited with ${describeExit(exit)} on SIGTERM, expected exit code 0${frames(session, 4)}`,
        Rule.sigterm,
      );
    return pass(`exited 0 after ${Math.round(performance.now() - started)} ms`);
  },
};

export const STDOUT_CHECK_ID = "stdout.frames-only";

export const stdoutCheck: Check = {
  id: STDOUT_CHECK_ID,
  description: "every stdout line of every session is one JSON-RPC 2.0 frame of at most 16 MiB (no banners, no logs)",
  rule: Rule.stdoutFrames,
  needs: [],
  last: true,
  async run(ctx) {
    const found: string[] = [];
    let total = 0;
    let oversize = false;
    for (const { check, session } of ctx.shared.sessions) {
      total += session.noiseCount + (session.partialLine ? 1 : 0);
      oversize ||= session.oversizeLines.length > 0;
      for (const n of session.noise.slice(0, 6))
        found.push(`    [${check}] ${n.why}: ${JSON.stringify(n.line.slice(0, 160))}`);
      if (session.partialLine)
        found.push(
          `    [${check}] stdout ended in the middle of a line: ${JSON.stringify(session.partialLine.slice(0, 160))}`,
        );
    }
    if (total === 0) return pass();
    return fail(
      `stdout carried ${total} line(s) that are not JSON-RPC frames (print logs and banners to stderr):\n${found.slice(0, 6).join("\n")}`,
      oversize ? `${Rule.stdoutFrames} ${Rule.frameSize}` : Rule.stdoutFrames,
    );
  },
};

export const ORPHANS_CHECK_ID = "lifecycle.orphans";

export const orphansCheck: Check = {
  id: ORPHANS_CHECK_ID,
  description: "when the plugin exits, nothing it started outlives it or keeps its stdout open",
  rule: Rule.orphans,
  needs: [],
  last: true,
  async run(ctx) {
    const escaped = ctx.shared.sessions.filter((s) => s.session.escapedDescendants.length > 0);
    if (escaped.length > 0) {
      const names = [
        ...new Set(escaped.flatMap((s) => s.session.escapedDescendants.map((p) => `${p.name} (pid ${p.pid})`))),
      ].slice(0, 5);
      return fail(
        `a process the plugin started left its process group and outlived the plugin: ${names.join(", ")} (in ${escaped.length} session(s): ${[...new Set(escaped.map((s) => s.check))].slice(0, 5).join(", ")}); the host ended it. Anna's runner ends only the plugin's group: keep helpers in it (no setsid, no detached spawn) and stop them before exiting`,
        Rule.orphans,
      );
    }
    const held = ctx.shared.sessions.filter((s) => s.session.stdoutHeldOpen);
    if (held.length === 0) return pass();
    return warn(
      `the plugin exited, but a child it started kept stdout open (in ${held.length} session(s): ${[...new Set(held.map((s) => s.check))].slice(0, 5).join(", ")}); the host ended its process group. Start helpers with stdout redirected (e.g. to stderr or /dev/null), and stop them before exiting`,
      Rule.orphans,
    );
  },
};
