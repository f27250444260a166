/**
 * The session out and in: the recorded exchanges as a harness fixture that `executa test
 * --fixtures` replays (each offered with whether a replay can answer the same), the trace as
 * JSON, a fixture imported and replayed on the running plugin, and the conformance checks.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir, removeNow } from "../../common/cleanup.js";
import type { ConformanceReport } from "../../conform/index.js";
import { HarnessRecorder, readFixture } from "../../host/index.js";
import { PROTOCOL_V2, RESULT_TOO_LARGE } from "../../protocol/index.js";
import type { WorkbenchExchange } from "../workbench.js";
import { boundDepth, MAX_SHOWN_DEPTH } from "./bounded-depth.js";
import { HttpError } from "./http.js";
import type { Inspector } from "./inspector.js";
import type { ConformanceReportView, ExportCandidate, ReplayResult } from "./wire.js";

const MAX_IMPORT_CHARS = 16 * 1024 * 1024;

/** The conformance suite loads when the page first needs it, not at every start of `executa dev` or `inspect`. */
const loadConform = () => import("../../conform/index.js");

function summary(x: WorkbenchExchange): string {
  if (x.method !== "invoke") return x.method;
  const args = JSON.stringify((x.params as { arguments?: unknown } | undefined)?.arguments ?? {});
  return `invoke ${String(x.params?.tool)} ${args.length > 80 ? `${args.slice(0, 79)}…` : args}`;
}

function succeeded(x: WorkbenchExchange): boolean {
  if ("error" in x.answer) return false;
  const result = x.answer.result as { success?: unknown } | undefined;
  return x.method !== "invoke" || result?.success === true;
}

function isTooLarge(answer: WorkbenchExchange["answer"]): boolean {
  const data = "error" in answer ? (answer.error as { data?: { errorCode?: unknown } } | undefined)?.data : undefined;
  return data?.errorCode === RESULT_TOO_LARGE;
}

/** Why a replay may answer differently, or undefined when it answers the same. */
function whyNotReplayable(
  inspector: Inspector,
  x: WorkbenchExchange,
  manifests: Map<number, string>,
  current: string | undefined,
): string | undefined {
  if (manifests.get(x.session) !== undefined && manifests.get(x.session) !== current)
    return "recorded before the plugin changed (its manifest differs now)";
  if (x.invokeId && inspector.unusualAnswers.has(x.invokeId))
    return `a reverse request was ${inspector.unusualAnswers.get(x.invokeId)}`;
  if (x.usedCredentials) return "it ran with credentials, which an export never carries";
  if (x.method === "invoke" && x.hostProtocol !== PROTOCOL_V2)
    return "recorded under a simulated v1 host (the replay speaks 2.0)";
  if (isTooLarge(x.answer))
    return `a ${RESULT_TOO_LARGE} error counts the frame's bytes, and a replay's request id may be longer or shorter`;
  return undefined;
}

export function exportCandidates(inspector: Inspector): ExportCandidate[] {
  const manifests = new Map<number, string>();
  for (const x of inspector.exchanges)
    if (x.method === "describe" && "result" in x.answer) manifests.set(x.session, JSON.stringify(x.answer.result));
  const current = manifests.get(Math.max(...manifests.keys()));
  return inspector.exchanges.map((x, index) => {
    const why = whyNotReplayable(inspector, x, manifests, current);
    return {
      index,
      session: x.session,
      method: x.method,
      summary: inspector.credentials.redact(summary(x)),
      ok: succeeded(x),
      replayable: why === undefined,
      ...(why && { why }),
    };
  });
}

/** The chosen exchanges (default: those a replay answers the same) as harness JSONL, redacted. */
export function exportFixture(inspector: Inspector, include: number[] | undefined): string {
  const chosen =
    include ??
    exportCandidates(inspector)
      .filter((c) => c.replayable)
      .map((c) => c.index);
  const lines: string[] = [];
  const { launch } = inspector.options;
  const recorder = new HarnessRecorder(
    (line) => lines.push(line),
    { plugin: [launch.command, ...launch.args].join(" "), recorder: "executa inspect" },
    inspector.started,
    inspector.workbench.mockHost,
  );
  for (const index of [...new Set(chosen)].sort((a, b) => a - b)) {
    const x = inspector.exchanges[index];
    if (!x) throw new HttpError(400, `no exchange ${index} (there are ${inspector.exchanges.length})`);
    recorder.exchange(x.method, x.params, x.answer, x.sentAt, x.answeredAt);
  }
  return lines.map((line) => inspector.credentials.redactFrame(line)).join("\n") + "\n";
}

export function exportTrace(inspector: Inspector): Record<string, unknown> {
  const { launch } = inspector.options;
  const state = inspector.state();
  return boundDepth(
    {
      exported_by: "executa inspect",
      plugin: {
        command: launch.command,
        args: launch.args,
        source: launch.source,
        manifest: state.plugin.manifest,
        protocolVersion: state.plugin.protocolVersion,
      },
      host: state.host,
      frames: state.trace,
      frames_dropped: state.traceDropped,
      reverse_requests: inspector.credentials.redactValue(inspector.workbench.mockHost.log),
    },
    MAX_SHOWN_DEPTH,
  );
}

/** Replays a fixture (either format `executa test --fixtures` reads) on the running plugin, exchange by exchange. */
export async function importFixture(
  inspector: Inspector,
  name: string,
  text: string,
): Promise<{ results: ReplayResult[]; notReplayed: string[] }> {
  if (text.length > MAX_IMPORT_CHARS)
    throw new HttpError(413, `the fixture is over ${MAX_IMPORT_CHARS / 1024 / 1024} MiB`);
  const dir = makeTempDir("executa-inspect-import-");
  let fixture;
  try {
    const file = join(dir, name.replace(/[^\w.-]/g, "_").slice(0, 80) || "fixture.jsonl");
    writeFileSync(file, text);
    fixture = readFixture(file);
  } finally {
    removeNow(dir);
  }
  const { replayExchange } = await loadConform();
  const session = await inspector.liveSession();
  const results: ReplayResult[] = [];
  for (const x of fixture.exchanges) {
    try {
      const { answer, matched } = await replayExchange(session, x, inspector.credentials.forInvoke());
      results.push({
        line: x.line,
        method: x.method,
        matched,
        expected: inspector.credentials.redactValue(x.expect),
        answer: inspector.credentials.redactValue(answer),
      });
    } catch (error) {
      results.push({
        line: x.line,
        method: x.method,
        matched: false,
        expected: inspector.credentials.redactValue(x.expect),
        answer: { error: { message: (error as Error).message } },
      });
    }
  }
  return { results, notReplayed: fixture.notReplayed };
}

/** `executa test`'s checks on fresh sessions of the same plugin, with the mock host as the page set it (by-hand sampling becomes the canned reply). */
export async function conformance(inspector: Inspector): Promise<ConformanceReportView> {
  const { runChecks } = await loadConform();
  const mock = inspector.workbench.mockHost;
  const sampling = mock.sampling.kind === "manual" ? undefined : mock.sampling;
  const report: ConformanceReport = await runChecks(inspector.options.launch, {
    mockHost: {
      ...inspector.options.mockHost,
      ...(sampling && { sampling }),
      rules: mock.ruleSet,
      refuse: mock.refusedCapabilities,
    },
  });
  const view: ConformanceReportView = report;
  return inspector.credentials.redactValue(view);
}
