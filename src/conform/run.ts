/** runChecks: a probe session first (describe, alive), then every check on its own sessions, in parallel. */
import { ExecutaError } from "../common/errors.js";
import {
  errorLine,
  PluginExited,
  prepareLaunch,
  replayable,
  Session,
  TIMED_OUT,
  within,
  type LaunchSpec,
  type MockHostOptions,
} from "../host/index.js";
import type { Manifest } from "../protocol/index.js";
import { CHECKS, manifestTextCheck } from "./checks/index.js";
import { CheckContext, frames, namedTools, waitsFor, type ProbeResult, type Shared, type Waits } from "./context.js";
import { fixtureChecks } from "./fixtures.js";
import { fuzzCheck, FUZZ_CHECK_ID } from "./fuzz.js";
import { DEFAULT_SAMPLE_SEED, sampleNote, sampleTools, TOOL_SAMPLE_SIZE } from "./tool-sample.js";
import type { Check, CheckResult, ConformanceReport, Outcome, Prerequisite, RunOptions } from "./types.js";

/** How long to keep waiting for a describe that missed its 5 s, to learn the manifest anyway. */
const LATE_DESCRIBE_MS = 25_000;
/** After the first answer, how long the plugin must stay up before the second request. */
const ALIVE_PAUSE_MS = 200;

async function runProbe(
  launch: LaunchSpec,
  env: NodeJS.ProcessEnv | undefined,
  shared: Pick<Shared, "sessions">,
  waits: Waits,
): Promise<ProbeResult> {
  const session = new Session(launch, { env: env ?? {} });
  shared.sessions.push({ check: "describe", session });
  const promise = session.call("describe");
  promise.catch(() => undefined);
  let describe: ProbeResult["describe"];
  try {
    let r = await within(promise, waits.describeMs);
    let timedOut = false;
    if (r === TIMED_OUT) {
      timedOut = true;
      r = await within(promise, LATE_DESCRIBE_MS);
    }
    describe =
      r === TIMED_OUT
        ? { timedOut: true, error: `no answer within ${(waits.describeMs + LATE_DESCRIBE_MS) / 1000} s` }
        : { frame: r.frame, ms: r.ms, timedOut, ...(r.file && { file: r.file }) };
  } catch (error) {
    if (error instanceof PluginExited && error.spawnError) {
      throw new ExecutaError(`cannot start the plugin (${launch.command}): ${error.spawnError.message}`, {
        hint: "check the command, or pass it after --: executa test -- <command> [args]",
      });
    }
    const said = errorLine(session.stderr);
    describe = {
      timedOut: false,
      error: `${(error as Error).message} before answering${said ? ` (stderr: ${said.slice(0, 300)})` : ""}`,
    };
  }
  const result = describe.file?.error ? undefined : describe.frame?.result;
  const manifest = result && typeof result === "object" && !Array.isArray(result) ? (result as Manifest) : undefined;
  let alive: ProbeResult["alive"];
  if (!describe.frame) {
    alive = {
      ok: false,
      message: `describe never answered, so staying alive after a response could not be seen: ${describe.error}`,
    };
  } else {
    await new Promise((resolve) => setTimeout(resolve, ALIVE_PAUSE_MS));
    if (!session.alive) {
      alive = {
        ok: false,
        message: `exited (${session.exit?.signal ?? `code ${session.exit?.code}`}) right after its first response; the Agent marks such a plugin Stopped and pays a cold start on every invoke${frames(session, 4)}`,
      };
    } else {
      try {
        await session.request("executa.conformance/ping", undefined, waits.healthMs);
        alive = { ok: true };
      } catch (error) {
        alive = {
          ok: false,
          message: `did not answer a second request: ${(error as Error).message}${frames(session, 4)}`,
        };
      }
    }
  }
  return { describe, ...(manifest && { manifest }), alive, session };
}

function messageOf(outcome: Outcome, note: string): { message?: string } {
  const text =
    outcome.status === "fail" || outcome.status === "warn"
      ? outcome.message
      : outcome.status === "skip"
        ? outcome.reason
        : outcome.note;
  const message = [text, note].filter(Boolean).join(text?.includes("\n") ? "\n  " : "; ");
  return message ? { message } : {};
}

function unmet(needs: readonly Prerequisite[], probe: ProbeResult): string | undefined {
  for (const need of needs) {
    if (need === "alive" && !probe.describe.frame) return "describe never answered (see describe)";
    if (need === "alive" && !probe.alive.ok)
      return "the plugin does not stay alive after a response (see lifecycle.alive)";
    if ((need === "manifest" || need === "tools") && !probe.manifest) return "describe gave no manifest (see describe)";
    if (need === "tools") {
      const tools = probe.manifest?.tools;
      if (!Array.isArray(tools) || !tools.some((t) => t && typeof t.name === "string"))
        return "the manifest has no tools (see describe)";
    }
  }
  return undefined;
}

function selected(all: readonly Check[], only?: string[], skipIds?: string[]): Check[] {
  const names = [...(only ?? []), ...(skipIds ?? [])];
  const matchesId = (id: string, pattern: string) =>
    id === pattern || id.startsWith(`${pattern}.`) || id.startsWith(`${pattern}/`);
  for (const name of names) {
    if (!all.some((c) => matchesId(c.id, name))) {
      throw new ExecutaError(`unknown check id: ${name}`, { hint: `check ids: ${all.map((c) => c.id).join(", ")}` });
    }
  }
  return all.filter(
    (c) => (!only?.length || only.some((o) => matchesId(c.id, o))) && !skipIds?.some((s) => matchesId(c.id, s)),
  );
}

async function pool<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}

/** The checks a run with these options has, in report order. */
export function suiteChecks(options: RunOptions, seed = 0): Check[] {
  const all: Check[] = [...CHECKS];
  if (options.expectManifestText !== undefined)
    all.splice(1, 0, manifestTextCheck(options.expectManifestText, options.defaultManifestName));
  all.push(fuzzCheck(options.fuzz ?? 0, seed));
  if (options.fixtures) all.push(...fixtureChecks(options.fixtures, options.credentials));
  return all;
}

/** Runs the conformance checks against a plugin launch and reports each one. */
export async function runChecks(
  launchIn: LaunchSpec,
  options: RunOptions & { mockHost?: MockHostOptions } = {},
): Promise<ConformanceReport> {
  const started = performance.now();
  const seed = options.seed ?? Date.now() % 2 ** 31;
  const checks = selected(suiteChecks(options, seed), options.only, options.skip);
  const prepared = await prepareLaunch(launchIn);
  const progress = options.progress;
  progress?.planned(checks.length);
  const shared: Shared = {
    launch: prepared.launch,
    waits: waitsFor(options.slowdown),
    env: options.env,
    mockHost: options.fixtures ? replayable(options.mockHost) : (options.mockHost ?? {}),
    sessions: [],
    probe: undefined as unknown as ProbeResult,
    sample: { tools: [], of: 0 },
    ...(progress && { progress }),
  };
  const results = new Map<string, CheckResult>();
  try {
    shared.probe = await runProbe(prepared.launch, options.env, shared, shared.waits);
    shared.sample = sampleTools(
      namedTools(shared.probe.manifest),
      options.maxTools ?? TOOL_SAMPLE_SIZE,
      options.seed ?? DEFAULT_SAMPLE_SEED,
    );
    const runOne = async (check: Check) => {
      const t0 = performance.now();
      progress?.started(check.id);
      const ctx = new CheckContext(shared, check.id);
      const blocked = unmet(check.needs, shared.probe);
      let outcome: Outcome;
      if (blocked) outcome = { status: "skip", reason: `needs a working plugin: ${blocked}` };
      else {
        try {
          outcome = await check.run(ctx);
        } catch (error) {
          const mine = shared.sessions.filter((s) => s.check === check.id).at(-1)?.session;
          outcome = { status: "fail", message: `${(error as Error).message}${mine ? frames(mine, 6) : ""}` };
        }
      }
      await Promise.all(shared.sessions.filter((s) => s.check === check.id).map((s) => s.session.dispose()));
      const result: CheckResult = {
        id: check.id,
        description: check.description,
        status: outcome.status,
        ...messageOf(outcome, ctx.usedTools ? sampleNote(shared.sample) : ""),
        rule: ("rule" in outcome && outcome.rule) || check.rule,
        ms: Math.round(performance.now() - t0),
      };
      results.set(check.id, result);
      progress?.finished(check.id);
      options.onResult?.(result);
    };
    await shared.probe.session.dispose();
    await pool(
      checks.filter((c) => !c.last),
      options.concurrency ?? 4,
      runOne,
    );
    for (const check of checks.filter((c) => c.last)) await runOne(check);
  } finally {
    await Promise.all(shared.sessions.map((s) => s.session.dispose()));
    prepared.cleanup();
  }
  const ordered = checks.map((c) => results.get(c.id)!).filter(Boolean);
  const fuzzRan = ordered.some((r) => r.id === FUZZ_CHECK_ID && r.status !== "skip");
  const failing = (r: CheckResult) => r.status === "fail" || (options.strict === true && r.status === "warn");
  return {
    passed: !ordered.some(failing),
    ...(options.strict && { strict: true }),
    results: ordered,
    ms: Math.round(performance.now() - started),
    ...(fuzzRan && { seed }),
    ...(shared.sample.seed !== undefined && {
      toolSample: { checked: shared.sample.tools.length, of: shared.sample.of, seed: shared.sample.seed },
    }),
  };
}
