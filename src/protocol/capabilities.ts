/**
 * The manifest's `host_capabilities`: exactly the platform's allow-list
 * (data/anna-app-schema/capabilities.json, anna-app-schema's `host_capabilities`; a test fails
 * when this table and that file disagree), with what each unlocks on the wire and what a plugin
 * advertises for it in `initialize` `client_capabilities`.
 *
 * `methods` are the reverse-RPC methods the platform's host routes for the capability (a name
 * ending in "/" or "." is a prefix). A capability with no method is allowed by the validator but
 * has no Executa wire method in the platform's code yet (app-side services such as audio).
 */
export const CAPABILITY_ALLOW_LIST = {
  package: "anna-app-schema",
  version: "0.30.0",
  file: "acl/capabilities.json",
} as const;

type Capability = { methods: readonly string[]; client: Record<string, object>; about: string };

const kv = { methods: ["storage/"], client: { storage: { kv: true } } } as const;

export const HOST_CAPABILITIES = {
  "aps.files": {
    methods: ["files/"],
    client: { storage: { files: true } },
    about: "APS files in the plugin's own app scope",
  },
  "aps.kv": { ...kv, about: "APS key-value storage in the plugin's own app scope" },
  "aps.scope.admin": {
    methods: ["storage/", "files/"],
    client: { storage: { kv: true, files: true } },
    about: "every APS scope and owner (system apps only)",
  },
  "aps.scope.app.read": { ...kv, about: "read another owner's scope=app keys" },
  "aps.scope.app.write": { ...kv, about: "write another owner's scope=app keys" },
  "aps.scope.tool.read": { ...kv, about: "read scope=tool keys" },
  "aps.scope.tool.write": { ...kv, about: "write scope=tool keys" },
  "aps.scope.user.read": { ...kv, about: "read scope=user keys" },
  "aps.scope.user.write": { ...kv, about: "write scope=user keys" },
  "host.upload": { methods: ["host/uploadFile"], client: { upload: {} }, about: "transient uploads through the host" },
  "llm.agent.auto": {
    methods: ["agent/session."],
    client: { agent: { submodes: ["auto"] } },
    about: "agent sessions, auto submode",
  },
  "llm.agent.fixed": {
    methods: ["agent/session."],
    client: { agent: { submodes: ["fixed"] } },
    about: "agent sessions, fixed submode",
  },
  "llm.audio.speak": { methods: [], client: {}, about: "text to speech (no Executa wire method yet)" },
  "llm.audio.transcribe": { methods: [], client: {}, about: "speech to text (no Executa wire method yet)" },
  "llm.complete": {
    methods: [],
    client: {},
    about: "an app's LLM completions (no Executa wire method; plugins sample with llm.sample)",
  },
  "llm.embed": { methods: ["embeddings/create"], client: { embeddings: {} }, about: "embeddings" },
  "llm.image": { methods: ["image/generate"], client: { image: {} }, about: "image generation" },
  "llm.image.edit": { methods: ["image/edit"], client: { "image.edit": {} }, about: "image editing" },
  "llm.music": { methods: [], client: {}, about: "music generation (no Executa wire method yet)" },
  "llm.sample": {
    methods: ["sampling/createMessage", "agent/complete"],
    client: { sampling: {} },
    about: "the host's model: sampling and agent/complete",
  },
  "llm.video": { methods: [], client: {}, about: "video generation (no Executa wire method yet)" },
  "web.fetch": { methods: ["web/fetch"], client: { web: { fetch: true } }, about: "host-managed web fetch" },
  "web.image_fetch": { methods: [], client: {}, about: "host-managed image fetch (no Executa wire method yet)" },
  "web.image_search": { methods: [], client: {}, about: "host-managed image search (no Executa wire method yet)" },
  "web.search": { methods: ["web/search"], client: { web: { search: true } }, about: "host-managed web search" },
} as const satisfies Record<string, Capability>;

export type HostCapability = keyof typeof HOST_CAPABILITIES;

export function isHostCapability(name: string): name is HostCapability {
  return Object.hasOwn(HOST_CAPABILITIES, name);
}

/** Names authors wrote before the allow-list, with what the platform accepts instead. */
const RENAMED: Record<string, { use: readonly HostCapability[]; why: string }> = {
  "storage.user": { use: ["aps.scope.user.read", "aps.scope.user.write"], why: "storage in scope user" },
  "storage.app": { use: ["aps.kv"], why: "storage in the plugin's own app scope, the host's default" },
  "storage.tool": { use: ["aps.scope.tool.read", "aps.scope.tool.write"], why: "storage in scope tool" },
  storage: { use: ["aps.kv"], why: "key-value storage" },
  aps: { use: ["aps.kv", "aps.files"], why: "key-value storage and files" },
  sampling: { use: ["llm.sample"], why: "the host's model" },
  embeddings: { use: ["llm.embed"], why: "embeddings" },
  upload: { use: ["host.upload"], why: "host uploads" },
};

/** The allowed names closest to an unknown one: a known rename, else the nearest by edit distance. */
export function nearestCapability(name: string): readonly HostCapability[] {
  const renamed = RENAMED[name];
  if (renamed) return renamed.use;
  let best: HostCapability[] = [];
  let bestDistance = Infinity;
  for (const candidate of Object.keys(HOST_CAPABILITIES) as HostCapability[]) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [[candidate], d];
    else if (d === bestDistance) best.push(candidate);
  }
  return bestDistance <= Math.max(3, Math.floor(name.length / 3)) ? best.slice(0, 2) : [];
}

/** What to say about a name that is not on the allow-list: the list's version and the nearest name. */
export function unknownCapabilityMessage(name: string): { message: string; hint: string } {
  const source = `${CAPABILITY_ALLOW_LIST.package} ${CAPABILITY_ALLOW_LIST.version}`;
  const message = `unknown host capability ${JSON.stringify(name)}: not on the platform's allow-list (${source})`;
  const near = nearestCapability(name);
  const renamed = RENAMED[name];
  if (near.length > 0) {
    const names = near.map((n) => JSON.stringify(n)).join(" and ");
    return { message, hint: `use ${names}${renamed ? ` (${renamed.why})` : ""}` };
  }
  return { message, hint: `allowed: ${Object.keys(HOST_CAPABILITIES).join(", ")}` };
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min(previous[j]! + 1, row[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length]!;
}

/** The `client_capabilities` a plugin with these `host_capabilities` advertises (merged). */
export function clientCapabilitiesFor(hostCapabilities: readonly string[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const name of hostCapabilities) {
    if (!isHostCapability(name)) continue;
    for (const [key, value] of Object.entries(HOST_CAPABILITIES[name].client)) {
      const merged: Record<string, unknown> = { ...out[key] };
      for (const [k, v] of Object.entries(value)) {
        const before = merged[k];
        merged[k] = Array.isArray(before) && Array.isArray(v) ? [...new Set([...before, ...v])] : v;
      }
      out[key] = merged;
    }
  }
  return out;
}

/** The capabilities any of which unlocks a reverse-RPC method. */
export function capabilitiesForMethod(method: string): HostCapability[] {
  return (Object.keys(HOST_CAPABILITIES) as HostCapability[]).filter((name) =>
    HOST_CAPABILITIES[name].methods.some((m) =>
      m.endsWith("/") || m.endsWith(".") ? method.startsWith(m) : method === m,
    ),
  );
}
