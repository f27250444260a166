/**
 * The interop tier: every template in every language, scaffolded by our CLI, driven by Anna's own
 * platform code. An app session whose manifest requires the plugin calls each tool with
 * `tools.invoke` through `python -m anna_app_runtime_local.bridge` (the harness behind
 * `anna-app dev`: its dispatcher, ACL, in-memory store and plugin pool); the test answers the
 * host's LLM and agent requests. anna-executa-test's checks run on the same projects.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { TEMPLATE_NAMES } from "../../src/project/index.js";
import { REPO_ROOT, run } from "../e2e/toolchain.js";
import { platformPython } from "../support/platform.js";
import { requires, type ToolName } from "../support/requires.js";
import { Bridge, type CallOutcome, type HostCall } from "./bridge.js";
import { SIGNING_SECRET, TALLY_FINAL, TALLY_KEY, TEMPLATE_CASES, WIRE_CALLS } from "./cases.js";
import { LANGUAGES, addBlobTool, scaffold, type Language, type Project } from "./projects.js";
import { SCRIPTED_HOST, appManifestRequiring } from "./scripted-host.js";

const NEEDS: Record<Language, ToolName[]> = { ts: [], python: ["uv"], go: ["go"] };
const MiB = 1024 * 1024;

/** Failures of runtimes that predate issue 19's runtime fixes (branch runtimes), by the decision that fixes them. */
const PREDATES: [RegExp, string][] = [
  [/NOT_NEGOTIATED|did not negotiate/, "D1, reverse requests under a host that sends no initialize"],
  [/keys=\[\]|__file_transport/, "D4, results inline up to 4 MiB instead of file transport"],
  [/aps\.scope\.tool/, "D6, storage sends no scope unless the author gives one (the host's default is app)"],
  [/^executa\/progress$/, "D3, ctx.progress sends executa/progress"],
];

function hintFor(message: string): string {
  const fix = PREDATES.find(([pattern]) => pattern.test(message));
  return fix
    ? `\n(this runtime predates issue 19's fix ${fix[1]}: expected to pass once that part of branch runtimes is merged)`
    : "";
}

function failure(what: string, outcome: CallOutcome, bridge: Bridge): string {
  if (outcome.ok) return `${what}: the platform answered ${JSON.stringify(outcome.result).slice(0, 300)}`;
  const { code, message } = outcome.error;
  return `${what}: the platform answered [${code}] ${message}${hintFor(message)}\n${bridge.log()}`;
}

interface JobSnapshot {
  state: string;
  progress: { seq: number; type: string; data: unknown }[];
  error?: unknown;
}

/** Polls `tools.getJob` until the job is no longer queued or running (at most 60 s). */
async function settled(bridge: Bridge, session: string, jobId: string): Promise<JobSnapshot> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const outcome = await bridge.call(session, "tools", "getJob", { jobId });
    assert.ok(outcome.ok, failure(`tools.getJob ${jobId}`, outcome, bridge));
    const job = outcome.result as unknown as JobSnapshot;
    if (job.state !== "queued" && job.state !== "running") return job;
    assert.ok(Date.now() < deadline, `job ${jobId} still ${job.state} after 60 s\n${bridge.log()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

for (const lang of LANGUAGES) {
  for (const template of TEMPLATE_NAMES) {
    describe(`${lang} --template ${template} through Anna's bridge`, requires("platform", ...NEEDS[lang]), () => {
      const cases = TEMPLATE_CASES[template] ?? [];
      let project: Project;
      let bridge: Bridge;
      let session: string;

      before(async () => {
        project = scaffold(lang, template, template === "minimal" ? addBlobTool : undefined);
        bridge = await Bridge.start(SCRIPTED_HOST, { SIGNING_SECRET });
        await bridge.register(project.toolId, project.dir, project.command);
        session = await bridge.createSession(appManifestRequiring(project.toolId));
      });
      after(() => bridge?.stop());

      const invoke = async (
        tool: string,
        args: Record<string, unknown>,
      ): Promise<{ outcome: CallOutcome; hostCalls: HostCall[] }> => {
        const from = bridge.hostCalls.length;
        const outcome = await bridge.call(session, "tools", "invoke", { tool_id: project.toolId, method: tool, args });
        return { outcome, hostCalls: bridge.hostCalls.slice(from) };
      };

      test("the tier invokes every tool the template declares", () => {
        const declared = (
          JSON.parse(readFileSync(join(project.dir, "manifest.json"), "utf8")) as { tools: { name: string }[] }
        ).tools.map((t) => t.name);
        const covered = new Set([...cases.map((c) => c.tool), ...(template === "minimal" ? ["blob"] : [])]);
        assert.deepEqual(
          declared.sort(),
          [...covered].sort(),
          `test/interop/cases.ts needs a case for each tool of the ${template} template`,
        );
      });

      test("passes anna-executa-test's spawn, describe_plugin and wire_format checks", () => {
        const r = run(
          platformPython(),
          [
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            join(REPO_ROOT, "test", "interop", "executa_test_checks.py"),
          ],
          {
            cwd: project.dir,
            env: {
              INTEROP_PROJECT_DIR: project.dir,
              INTEROP_COMMAND: project.command ? JSON.stringify(project.command) : "", // Python: anna-executa-test's default, uv run --project
              INTEROP_WIRE_CALLS: JSON.stringify(WIRE_CALLS[template] ?? []),
            },
          },
        );
        assert.equal(r.status, 0, `${lang} ${template}: anna-executa-test's checks failed\n${r.output}`);
      });

      for (const c of cases) {
        test(`${c.tool}(${JSON.stringify(c.args)}) answers through tools.invoke`, async () => {
          const { outcome, hostCalls } = await invoke(c.tool, c.args);
          assert.ok(outcome.ok, failure(`${lang} ${template}: ${c.tool}`, outcome, bridge));
          c.check(outcome.result, hostCalls);
        });
      }

      if (template === "services") {
        test("tally's counter is in the harness's own store, where the app's window reads it", async () => {
          const outcome = await bridge.call(session, "storage", "get", { key: TALLY_KEY });
          assert.ok(outcome.ok, failure(`${lang} storage.get ${TALLY_KEY}`, outcome, bridge));
          assert.equal(
            outcome.result.value,
            TALLY_FINAL,
            `${lang}: the counter the tally cases above wrote (this fails when they do)`,
          );
        });

        test("research run as a job (tools.invokeAsync) reports its progress to the job", async () => {
          const created = await bridge.call(session, "tools", "invokeAsync", {
            tool_id: project.toolId,
            method: "research",
            args: { question: "What is the answer?" },
          });
          assert.ok(created.ok, failure(`${lang} tools.invokeAsync research`, created, bridge));
          const job = await settled(bridge, session, created.result.jobId as string);
          assert.equal(
            job.state,
            "succeeded",
            `${lang} research as a job ended ${job.state}: ${JSON.stringify(job.error)}${hintFor(JSON.stringify(job.error ?? ""))}\n${bridge.log()}`,
          );
          const reported = job.progress.filter((p) => p.type !== "tool_start"); // tool_start is the harness's own
          assert.ok(
            reported.some((p) => (p.type === "progress" || p.type === "tool_update") && typeof p.data === "object"),
            `${lang} research sent no executa/progress the harness relayed to its job (events: ${JSON.stringify(job.progress)})${hintFor("executa/progress")}`,
          );
        });
      }

      if (template === "minimal") {
        test("a 3 MiB result arrives intact", async () => {
          const size = 3 * MiB;
          const { outcome } = await invoke("blob", { size });
          assert.ok(outcome.ok, failure(`${lang} blob of 3 MiB`, outcome, bridge));
          const blob = outcome.result.blob as string;
          assert.equal(blob.length, size);
          assert.ok(/^x+$/.test(blob), "every character arrived");
        });

        test("a result over 4 MiB fails with the runtime's message naming the file transports", async () => {
          const { outcome } = await invoke("blob", { size: 4.5 * MiB });
          assert.ok(!outcome.ok, failure(`${lang} blob of 4.5 MiB should fail`, outcome, bridge));
          const hint = failure(`${lang} blob of 4.5 MiB`, outcome, bridge);
          assert.equal(outcome.error.code, "tool_failed", hint);
          assert.match(
            outcome.error.message,
            /result too large: \d+ bytes is over the platform's 4 MiB result limit/,
            hint,
          );
          assert.match(outcome.error.message, /uploadFile/, hint);
        });
      }
    });
  }
}
