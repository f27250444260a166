/**
 * The services template in every language, recorded as a user records it (`executa dev --record`,
 * one `--invoke` of each tool per run, appended to one file) and replayed (`executa test --only
 * fixtures`): the replay passes, and the transcript holds each invoke's reverse requests.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, test } from "node:test";
import { REPO_ROOT, run, tempDir } from "./toolchain.js";
import { requires, type ToolName } from "../support/requires.js";

const executa = (args: string[], cwd: string) =>
  run(process.execPath, [join(REPO_ROOT, "bin", "executa.js"), ...args], { cwd, timeoutMs: 300_000 });

/** Each tool of the services template: the arguments it is invoked with, and the reverse requests it makes for them. */
const SERVICE_TOOLS: Record<string, { args: Record<string, unknown>; reverse: string[] }> = {
  triage: { args: { message: "The app crashes when I save a file." }, reverse: ["sampling/createMessage"] },
  tally: { args: { name: "visits", by: 2, scope: "user" }, reverse: ["storage/get", "storage/set"] },
  research: {
    args: { question: "What is an Executa plugin?" },
    reverse: ["agent/session.create", "agent/session.run"],
  },
};

const needs: Record<string, ToolName[]> = { ts: [], python: ["python3"], go: ["go"] };

test("the table covers every tool of the services template", () => {
  const variant = JSON.parse(readFileSync(join(REPO_ROOT, "templates", "variants", "services.json"), "utf8")) as {
    tools: { name: string }[];
  };
  assert.deepEqual(Object.keys(SERVICE_TOOLS).sort(), variant.tools.map((t) => t.name).sort());
});

for (const lang of ["ts", "python", "go"] as const) {
  describe(`${lang} --template services`, requires(...needs[lang]!), () => {
    const dir = join(tempDir(`services-replay-${lang}`), "services-tools");
    const fixture = join(dir, "fixtures", "session.jsonl");

    test("executa dev --record, one run per tool, records every invoke with its reverse requests", () => {
      const created = executa(
        ["create", dir, "--lang", lang, "--template", "services", "--yes", "--no-git", "--no-install"],
        REPO_ROOT,
      );
      assert.equal(created.status, 0, created.output);
      for (const [tool, { args }] of Object.entries(SERVICE_TOOLS)) {
        const r = executa(
          ["dev", "--record", fixture, "--invoke", tool, "--args", JSON.stringify(args), "--json"],
          dir,
        );
        assert.equal(r.status, 0, r.output);
        assert.equal(JSON.parse(r.stdout).status, "ok", r.output);
      }
      const lines = readFileSync(fixture, "utf8")
        .trim()
        .split("\n")
        .map(
          (l) =>
            JSON.parse(l) as {
              kind: string;
              id?: number;
              for?: number;
              ns?: string;
              method?: string;
              args?: { tool?: string };
            },
        );
      assert.equal(
        lines.filter((l) => l.kind === "meta").length,
        Object.keys(SERVICE_TOOLS).length,
        "each run appends a session",
      );
      // Request ids count within a session: an invoke's reverse lines follow it, up to the next session.
      let session = 0;
      const reverseByTool: Record<string, string[]> = {};
      const invokeIds = new Map<string, string>();
      for (const l of lines) {
        if (l.kind === "meta") session++;
        if (l.kind === "req" && l.method === "invoke") invokeIds.set(`${session}:${l.id}`, l.args!.tool!);
        if (l.kind === "reverse") (reverseByTool[invokeIds.get(`${session}:${l.for}`)!] ??= []).push(l.method!);
      }
      assert.deepEqual(
        reverseByTool,
        Object.fromEntries(Object.entries(SERVICE_TOOLS).map(([tool, { reverse }]) => [tool, reverse])),
      );
      assert.doesNotMatch(readFileSync(fixture, "utf8"), /127\.0\.0\.1/);
    });

    test("executa test --only fixtures replays the recording green", () => {
      const r = executa(["test", "--only", "fixtures", "--fixtures", fixture, "--json"], dir);
      assert.equal(r.status, 0, r.output);
      const report = JSON.parse(r.stdout) as {
        status: string;
        results: { id: string; status: string; message?: string }[];
      };
      assert.equal(report.status, "ok", r.stdout);
      assert.deepEqual(
        report.results.map((x) => [x.id, x.status]),
        [["fixtures/session", "pass"]],
        r.stdout,
      );
    });
  });
}
