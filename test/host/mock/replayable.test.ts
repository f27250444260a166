/** A mock host that is recorded or replayed answers the same requests the same way every run: fixed clock, seeded ids, URLs a transcript writes with one stable base. */
import assert from "node:assert/strict";
import { after, describe, it } from "node:test";
import { MockHost, replayable, TRANSCRIPT_URL_BASE } from "../../../src/host/index.js";
import { call, result } from "./harness.js";

const hosts: MockHost[] = [];
after(() => Promise.all(hosts.map((h) => h.close())));
const newHost = (options = replayable()) => {
  const host = new MockHost(options);
  hosts.push(host);
  return host;
};

interface Begin {
  upload_id: string;
  put_url: string;
  expires_at: string;
}

/** One files/ upload and its download URL, and an agent session, as a plugin would ask for them. */
async function session(host: MockHost) {
  const begin = result<Begin>(
    await call(host, "files/upload_begin", { path: "notes/a.txt", scope: "user", content_type: "text/plain" }),
  );
  const put = await fetch(begin.put_url, { method: "PUT", headers: { "Content-Type": "text/plain" }, body: "hello" });
  assert.equal(put.status, 200);
  result(await call(host, "files/upload_complete", { path: "notes/a.txt", scope: "user" }));
  const download = result<{ url: string }>(
    await call(host, "files/download_url", { path: "notes/a.txt", scope: "user" }),
  );
  const agent = result<{ app_session_uuid: string }>(await call(host, "agent/session.create", { kind: "agent" }));
  return { begin, download, agent, invokeId: host.ids.next("invoke") };
}

describe("a replayable mock host", () => {
  it("makes the same ids and the same transcript URLs in two runs, while each run's live URLs work", async () => {
    const [one, two] = [newHost(), newHost()];
    const first = await session(one);
    const second = await session(two);
    assert.notEqual(first.begin.put_url, second.begin.put_url, "each host has its own port and token");
    assert.deepEqual(one.toTranscript(first), two.toTranscript(second));
    const written = one.toTranscript(first);
    assert.ok(written.begin.put_url.startsWith(`${TRANSCRIPT_URL_BASE}/put/`), written.begin.put_url);
    assert.equal(written.begin.expires_at, "2026-01-01T00:15:00.000Z", "the clock stands still at 2026-01-01");
    // A URL read back from the transcript is the replaying host's own, and serves the object.
    const live = await two.fromTranscript(written.download.url);
    assert.equal(live, second.download.url);
    assert.equal(await (await fetch(live)).text(), "hello");
  });

  it("without a seed, makes different ids in two runs", async () => {
    const [one, two] = [newHost({}), newHost({})];
    const first = await session(one);
    const second = await session(two);
    assert.notEqual(first.begin.upload_id, second.begin.upload_id);
    assert.notEqual(first.agent.app_session_uuid, second.agent.app_session_uuid);
    assert.notEqual(first.invokeId, second.invokeId);
  });

  it("leaves a value without its URLs as it is, and starts no server for it", async () => {
    const host = newHost();
    const value = { text: "no URL here", url: "https://example.com/x" };
    assert.equal(host.toTranscript(value), value);
    assert.equal(await host.fromTranscript(value), value);
  });
});
