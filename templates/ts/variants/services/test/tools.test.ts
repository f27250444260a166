/** Unit tests of the three tools, each with a fake host that answers like Anna's. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  HostCode, HostError, ToolError,
  type AgentClient, type AgentRun, type AgentSession, type AgentSessionOptions, type HostClient, type SampleRequest, type SampleResult, type StorageClient, type ToolContext,
} from "../src/executa/index.js";
import { research, tally, triage } from "../src/tools.js";

/** A context whose host has only the services given (any other fails the test); progress reports go to `progress`. */
function fakeContext(host: Partial<HostClient>, progress: Record<string, unknown>[] = []): ToolContext {
  return {
    tool: "test",
    invokeId: "inv-1",
    deadlineMs: Date.now() + 60_000,
    credential: () => undefined,
    host: host as HostClient,
    progress: (data) => void progress.push(data),
    log: () => {},
  };
}

/** Key-value storage in memory, with the host's etags: a write with a stale ifMatch fails. */
function fakeStorage(options: { conflicts?: number } = {}) {
  const items = new Map<string, { value: unknown; etag: string }>();
  let conflicts = options.conflicts ?? 0;
  let writes = 0;
  const storage: Partial<StorageClient> = {
    get: async (key, o) => {
      const item = items.get(`${o?.scope}:${key}`);
      return item ? { ...item, exists: true } : { value: null, exists: false };
    },
    set: async (key, value, o) => {
      const current = items.get(`${o?.scope}:${key}`);
      if (conflicts-- > 0 || (o?.ifMatch !== undefined && o.ifMatch !== current?.etag)) {
        throw new HostError(HostCode.StoragePreconditionFailed, "PRECONDITION_FAILED: someone wrote it since you read it", { codeName: "PRECONDITION_FAILED" });
      }
      items.set(`${o?.scope}:${key}`, { value, etag: `e${++writes}` });
      return { etag: `e${writes}` };
    },
  };
  return { storage: storage as StorageClient, items };
}

describe("triage", () => {
  const answer = { category: "bug", urgency: 5, summary: "The app crashes on start." };
  const sampled = (structuredValid: boolean): SampleResult => ({
    content: { type: "text", text: JSON.stringify(answer) },
    text: JSON.stringify(answer),
    structuredValid,
    downgraded: false,
    ...(structuredValid && { parsed: answer }),
  });

  test("asks for the triage JSON Schema and returns the parsed answer, escalating urgency 4 and 5", async () => {
    const requests: SampleRequest[] = [];
    const ctx = fakeContext({ sample: async (req) => (requests.push(req), sampled(true)) });
    assert.deepEqual(await triage({ message: "It crashes!" }, ctx), { ...answer, escalate: true });
    const format = requests[0]!.responseFormat;
    assert.equal(format?.type, "json_schema");
    assert.deepEqual(format?.type === "json_schema" && format.json_schema.schema.required, ["category", "urgency", "summary"]);
    assert.match(requests[0]!.prompt!, /It crashes!$/);
  });

  test("an answer the host found invalid for the schema is a tool error", async () => {
    const ctx = fakeContext({ sample: async () => sampled(false) });
    await assert.rejects(triage({ message: "?" }, ctx), new ToolError("The model's answer did not match the triage schema; try again."));
  });
});

describe("tally", () => {
  test("keeps the counter across invokes, per scope", async () => {
    const { storage } = fakeStorage();
    const ctx = fakeContext({ storage });
    assert.deepEqual(await tally({ name: "visits" }, ctx), { name: "visits", count: 1 });
    assert.deepEqual(await tally({ name: "visits", by: 10 }, ctx), { name: "visits", count: 11 });
    assert.deepEqual(await tally({ name: "visits", scope: "user" }, ctx), { name: "visits", count: 1 });
  });

  test("a write that lost a race reads the counter again and retries, three times at most", async () => {
    const { storage, items } = fakeStorage({ conflicts: 2 });
    assert.deepEqual(await tally({ name: "visits" }, fakeContext({ storage })), { name: "visits", count: 1 });
    assert.equal(items.get("tool:tally/visits")?.value, 1);
    const busy = fakeStorage({ conflicts: 3 });
    await assert.rejects(tally({ name: "visits" }, fakeContext({ storage: busy.storage })), ToolError);
  });

  test("another host error is the tool's error", async () => {
    const refused = new HostError(HostCode.StorageNotGranted, "NOT_GRANTED: storage/get needs \"aps.kv\"", { codeName: "NOT_GRANTED" });
    const ctx = fakeContext({ storage: { get: () => Promise.reject(refused) } as Partial<StorageClient> as StorageClient });
    await assert.rejects(tally({ name: "visits" }, ctx), refused);
  });
});

describe("research", () => {
  test("runs the question in a new agent session and returns its text and warnings", async () => {
    const created: AgentSessionOptions[] = [];
    const asked: string[] = [];
    const warnings = [{ code: "NO_TOOLS_AVAILABLE", message: "this session was granted no tools" }];
    const session = {
      uuid: "s-1",
      info: {},
      run: async (content: string) => (asked.push(content), { text: "Probably 42.", warnings } as Partial<AgentRun> as AgentRun),
    } as Partial<AgentSession> as AgentSession;
    const agent = { create: async (options?: AgentSessionOptions) => (created.push(options ?? {}), session) } as Partial<AgentClient> as AgentClient;
    const reports: Record<string, unknown>[] = [];
    const ctx = fakeContext({ agent }, reports);
    assert.deepEqual(await research({ question: "What is the answer?" }, ctx), { answer: "Probably 42.", warnings });
    assert.deepEqual(asked, ["What is the answer?"]);
    assert.equal(created[0]?.label, "research");
    assert.deepEqual(reports.map((r) => [r.step, r.of]), [[1, 2], [2, 2]]);
  });
});
