/**
 * What the interop tests put around a plugin: the manifest of an Anna app that requires it, and
 * scripted answers for the `host.*` requests the bridge forwards to its parent (the anna-app CLI's
 * LlmBridge in real use: the LLM and agent sessions). Storage is not here: the bridge's own
 * in-memory store answers it.
 */
import type { HostHandler } from "./bridge.js";

/** The manifest of an app whose window calls the plugin's tools and lets it use the host services the templates use. */
export function appManifestRequiring(toolId: string): Record<string, unknown> {
  return {
    schema: 2,
    required_executas: [{ tool_id: toolId }],
    ui: {
      bundle: { entry: "index.html" },
      views: [{ name: "main", title: "Interop", default: true }],
      host_api: {
        tools: ["required:*"],
        llm: ["complete"],
        agent: { session: { auto: true } },
        storage: ["get", "set", "delete", "list"],
        web: ["search", "fetch"],
      },
    },
  };
}

/** The scripted model's answer to a prompt with a response format: a triage of the message. */
export const SCRIPTED_TRIAGE = { category: "bug", urgency: 4, summary: "The export button crashes the app." };
export const SCRIPTED_SUMMARY = "A scripted summary.";
export const SCRIPTED_ANSWER = "Forty-two, probably.";
export const SCRIPTED_WARNING = { code: "NO_TOOLS_AVAILABLE", message: "this session has no tools" };

const completion = (params: Record<string, unknown>) => {
  const structured = params.responseFormat !== undefined;
  return {
    role: "assistant",
    content: { type: "text", text: structured ? JSON.stringify(SCRIPTED_TRIAGE) : SCRIPTED_SUMMARY },
    model: "scripted-model",
    stopReason: "endTurn",
    usage: { inputTokens: 10, outputTokens: 10, totalTokens: 20 },
    _meta: {
      provider: "interop-test",
      ...(structured && { responseFormat: { structuredValid: true, downgraded: false } }),
    },
  };
};

export const SCRIPTED_HOST: Record<string, HostHandler> = {
  "host.llm.complete": completion,
  "host.agent.session.create": (params) => ({
    app_session_uuid: "aps_interop1",
    kind: "agent",
    agent_submode: "auto",
    expires_in: 600,
    system_prompt: params.system_prompt ?? null,
  }),
  "host.agent.session.run": (params) => ({
    run_id: "run_interop1",
    frames: [
      {
        event: "run_meta",
        run_id: "run_interop1",
        app_session_uuid: params.app_session_uuid,
        warnings: [SCRIPTED_WARNING],
      },
      { event: "token", text: SCRIPTED_ANSWER },
      { event: "final", text: SCRIPTED_ANSWER },
      { event: "complete" },
    ],
    final: { event: "final", text: SCRIPTED_ANSWER },
  }),
};
