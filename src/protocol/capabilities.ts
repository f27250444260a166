/**
 * The manifest's `host_capabilities` values: what each unlocks, and what the plugin advertises
 * for it in `initialize` `client_capabilities`.
 */
export const HOST_CAPABILITIES = {
  "llm.sample": { methods: ["sampling/createMessage", "agent/complete"], client: { sampling: {} } },
  "llm.agent.auto": { methods: ["agent/session."], client: { agent: { submodes: ["auto"] } } },
  "aps.kv": { methods: ["storage/"], client: { storage: { kv: true } } },
  "aps.files": { methods: ["files/"], client: { storage: { files: true } } },
  "storage.user": { methods: ["storage/"], client: { storage: { kv: true } } },
  "storage.app": { methods: ["storage/"], client: { storage: { kv: true } } },
  "storage.tool": { methods: ["storage/"], client: { storage: { kv: true } } },
  "host.upload": { methods: ["host/uploadFile"], client: { upload: {} } },
  "llm.image": { methods: ["image/generate"], client: { image: {} } },
  "llm.image.edit": { methods: ["image/edit"], client: { "image.edit": {} } },
  "llm.embed": { methods: ["embeddings/create"], client: { embeddings: {} } },
} as const satisfies Record<string, { methods: readonly string[]; client: Record<string, object> }>;

export type HostCapability = keyof typeof HOST_CAPABILITIES;

export function isHostCapability(name: string): name is HostCapability {
  return Object.hasOwn(HOST_CAPABILITIES, name);
}

/** The `client_capabilities` a plugin with these `host_capabilities` advertises (merged). */
export function clientCapabilitiesFor(hostCapabilities: readonly string[]): Record<string, Record<string, unknown>> {
  const out: Record<string, Record<string, unknown>> = {};
  for (const name of hostCapabilities) {
    if (!isHostCapability(name)) continue;
    for (const [key, value] of Object.entries(HOST_CAPABILITIES[name].client)) {
      out[key] = { ...out[key], ...value };
    }
  }
  return out;
}

/** The capabilities any of which unlocks a reverse-RPC method. */
export function capabilitiesForMethod(method: string): HostCapability[] {
  return (Object.keys(HOST_CAPABILITIES) as HostCapability[]).filter((name) =>
    HOST_CAPABILITIES[name].methods.some((m) => (m.endsWith("/") || m.endsWith(".") ? method.startsWith(m) : method === m)),
  );
}
