/** describe, staying alive, and stopping on EOF and SIGTERM. */
import { canonicalManifestJson, formatDiagnostic, Timeouts, validateManifest } from "../../protocol/index.js";
import { describeExit, type Session } from "../../host/index.js";
import { frames, show } from "../context.js";
import { fail, pass, skip, type Check } from "../types.js";

/** A request every plugin answers fast: an unknown method (answered -32601, or anything else). */
export const PING = "executa.conformance/ping";

export const describeCheck: Check = {
  id: "describe",
  description: `describe answers within ${Timeouts.describeMs / 1000} s with a manifest that passes the manifest validator`,
  rule: "SPEC Methods/describe and Default timeouts: describe 5 s, not configurable; the result is the bare manifest",
  needs: [],
  async run(ctx) {
    const { describe, session } = ctx.probe;
    if (describe.error) return fail(`describe got no answer: ${describe.error}${frames(session)}`);
    if (!describe.frame) return fail(`describe got no answer${frames(session)}`);
    if (describe.timedOut) {
      return fail(`describe answered after ${((describe.ms ?? 0) / 1000).toFixed(1)} s; the Agent waits ${Timeouts.describeMs / 1000} s and then gives up on the plugin${frames(session, 4)}`);
    }
    if ("error" in describe.frame) return fail(`describe answered an error: ${show(describe.frame.error)}${frames(session, 4)}`);
    const result = describe.frame.result;
    if (result && typeof result === "object" && !Array.isArray(result) && "manifest" in result && !("tools" in result)) {
      return fail(`describe wrapped the manifest in {"manifest": ...}; the result must be the bare manifest (the host reads name, tools ... at the top)`);
    }
    const diagnostics = validateManifest(result, { source: "describe" });
    const errors = diagnostics.filter((d) => d.severity === "error");
    if (errors.length > 0) return fail(`the manifest from describe is not valid:\n${errors.map((d) => `    ${formatDiagnostic(d)}`).join("\n")}`);
    const warnings = diagnostics.length - errors.length;
    return pass(`${describe.ms} ms${warnings ? `; ${warnings} warning(s): ${diagnostics.filter((d) => d.severity === "warning").map(formatDiagnostic).join("; ")}` : ""}`);
  },
};

export function manifestTextCheck(expected: string): Check {
  return {
    id: "describe.manifest-text",
    description: "the describe result equals manifest.json byte for byte (canonical form)",
    rule: "contract: describe returns manifest.json exactly as committed",
    needs: ["manifest"],
    async run(ctx) {
      const actual = canonicalManifestJson(ctx.probe.describe.frame?.result);
      if (actual === expected) return pass();
      const a = actual.split("\n");
      const e = expected.split("\n");
      const line = a.findIndex((l, i) => l !== e[i]);
      return fail(`describe differs from manifest.json at line ${line + 1}:\n    expected: ${e[line] ?? "(end of file)"}\n    describe: ${a[line] ?? "(end of output)"}\n  (run \`executa manifest\`, then build again)`);
    },
  };
}

export const aliveCheck: Check = {
  id: "lifecycle.alive",
  description: "the process is still running after a response and answers the next request",
  rule: "SPEC Transport 6: the plugin is long-running; exiting after one response is a protocol violation",
  needs: [],
  async run(ctx) {
    if (!ctx.probe.describe.frame) return skip("describe never answered, so there was no response to stay alive after (see describe)");
    return ctx.probe.alive.ok ? pass() : fail(ctx.probe.alive.message ?? "the plugin did not stay alive");
  },
};

async function ready(session: Session): Promise<string | undefined> {
  try {
    await session.request(PING, undefined, Timeouts.describeMs);
    return undefined;
  } catch (error) {
    return `${(error as Error).message}${frames(session)}`;
  }
}

export const eofCheck: Check = {
  id: "lifecycle.eof",
  description: `exits 0 within ${Timeouts.sigtermGraceMs / 1000} s of stdin EOF`,
  rule: "SPEC Transport 6 and Lifecycle 4: the Agent closes stdin to ask for shutdown",
  needs: ["alive"],
  async run(ctx) {
    const session = ctx.session();
    const notReady = await ready(session);
    if (notReady) return fail(`the plugin did not answer before EOF: ${notReady}`);
    const started = performance.now();
    session.closeStdin();
    const exit = await session.waitExit(Timeouts.sigtermGraceMs);
    if (!exit) return fail(`still running ${Timeouts.sigtermGraceMs / 1000} s after stdin closed; a plugin must stop reading at EOF and exit${frames(session, 4)}`);
    if (exit.code !== 0) return fail(`exited with ${describeExit(exit)} on EOF, expected exit code 0${frames(session, 4)}`);
    return pass(`exited 0 after ${Math.round(performance.now() - started)} ms`);
  },
};

export const sigtermCheck: Check = {
  id: "lifecycle.sigterm",
  description: `exits 0 within ${Timeouts.sigtermGraceMs / 1000} s of SIGTERM`,
  rule: "SPEC Lifecycle 4: SIGTERM, then SIGKILL after 5 s; handle SIGTERM cleanly, exit non-zero only on a real crash",
  needs: ["alive"],
  async run(ctx) {
    if (process.platform === "win32") return skip("Windows has no SIGTERM");
    const session = ctx.session();
    const notReady = await ready(session);
    if (notReady) return fail(`the plugin did not answer before SIGTERM: ${notReady}`);
    const started = performance.now();
    const { exit, killed } = await session.terminate(Timeouts.sigtermGraceMs);
    if (killed) return fail(`ignored SIGTERM: still running ${Timeouts.sigtermGraceMs / 1000} s later, so the Agent would SIGKILL it (in-flight work and unflushed output lost)${frames(session, 4)}`);
    if (exit?.signal === "SIGTERM") return fail(`died of SIGTERM's default action instead of handling it (no flush, no clean exit 0); install a SIGTERM handler that stops reading and exits 0`);
    if (exit?.code !== 0) return fail(`exited with ${describeExit(exit)} on SIGTERM, expected exit code 0${frames(session, 4)}`);
    return pass(`exited 0 after ${Math.round(performance.now() - started)} ms`);
  },
};

export const STDOUT_CHECK_ID = "stdout.frames-only";

export const stdoutCheck: Check = {
  id: STDOUT_CHECK_ID,
  description: "every stdout line of every session is a JSON-RPC 2.0 frame (no banners, no logs)",
  rule: "SPEC Transport constraint 1: stdout is for protocol frames only, one JSON object per line; logs go to stderr (the spec tolerates and drops other lines, the runtime contract and this check do not)",
  needs: [],
  async run(ctx) {
    const found: string[] = [];
    for (const { check, session } of ctx.shared.sessions) {
      for (const n of session.noise) found.push(`    [${check}] ${n.why}: ${JSON.stringify(n.line.slice(0, 160))}`);
      if (session.partialLine) found.push(`    [${check}] stdout ended in the middle of a line: ${JSON.stringify(session.partialLine.slice(0, 160))}`);
      if (found.length >= 6) break;
    }
    if (found.length === 0) return pass();
    return fail(`stdout carried ${found.length >= 6 ? "at least 6" : found.length} line(s) that are not JSON-RPC frames (print logs and banners to stderr):\n${found.slice(0, 6).join("\n")}`);
  },
};
