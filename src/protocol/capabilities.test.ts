import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import {
  CAPABILITY_ALLOW_LIST,
  capabilitiesForMethod,
  clientCapabilitiesFor,
  HOST_CAPABILITIES,
  nearestCapability,
  unknownCapabilityMessage,
} from "./capabilities.js";
import { validateManifest } from "./validate.js";

const data = JSON.parse(
  readFileSync(new URL("../../../data/anna-app-schema/capabilities.json", import.meta.url), "utf8"),
) as { version: string; host_capabilities: string[] };
const pinned = JSON.parse(readFileSync(new URL("../../../data/platform-packages.json", import.meta.url), "utf8")) as {
  packages: Record<string, string>;
};

test("the code's capability table is the platform's allow-list, name for name, at the pinned version", () => {
  assert.deepEqual(Object.keys(HOST_CAPABILITIES).sort(), [...data.host_capabilities].sort());
  assert.equal(CAPABILITY_ALLOW_LIST.version, data.version);
  assert.equal(pinned.packages[CAPABILITY_ALLOW_LIST.package], data.version);
});

const manifestWith = (host_capabilities: string[]) => ({
  name: "p",
  display_name: "P",
  version: "1.0.0",
  description: "d",
  host_capabilities,
  tools: [{ name: "t", description: "does t", parameters: [] }],
});

test("every allow-listed name passes the manifest validator", () => {
  for (const name of data.host_capabilities) {
    const errors = validateManifest(manifestWith([name])).filter((d) => d.severity === "error");
    assert.deepEqual(errors, [], name);
  }
});

test("a name off the list is an error naming the list's version and the nearest allowed name", () => {
  const [error] = validateManifest(manifestWith(["storage.user"])).filter((d) => d.severity === "error");
  assert.match(
    error!.message,
    /unknown host capability "storage\.user": not on the platform's allow-list \(anna-app-schema 0\.30\.0\)/,
  );
  assert.match(error!.hint ?? "", /"aps\.scope\.user\.read" and "aps\.scope\.user\.write" \(storage in scope user\)/);
  assert.deepEqual(nearestCapability("storage.app"), ["aps.kv"]);
  assert.deepEqual(nearestCapability("llm.sampel"), ["llm.sample"]);
  assert.deepEqual(nearestCapability("web.serch"), ["web.search"]);
  assert.match(unknownCapabilityMessage("zzzzzzzzzzzzzzzzzzzzzzzzzzz").hint, /^allowed: aps\.files, /);
});

test("wire methods map to their capabilities, web included", () => {
  assert.deepEqual(capabilitiesForMethod("web/search"), ["web.search"]);
  assert.deepEqual(capabilitiesForMethod("web/fetch"), ["web.fetch"]);
  assert.ok(capabilitiesForMethod("storage/set").includes("aps.kv"));
  assert.ok(capabilitiesForMethod("storage/set").includes("aps.scope.user.write"));
  assert.deepEqual(capabilitiesForMethod("agent/session.run").sort(), ["llm.agent.auto", "llm.agent.fixed"]);
  assert.deepEqual(clientCapabilitiesFor(["llm.agent.auto", "llm.agent.fixed"]), {
    agent: { submodes: ["auto", "fixed"] },
  });
});
