/**
 * The plugin's tools, one per host service of protocol 2.0: the host's model with structured
 * output, key-value storage and an agent session. Each service needs its capability in
 * executa.json's `host_capabilities`; a host that did not grant it makes the call fail with a
 * HostError, which answers the invoke with its message. Each exported function
 * tagged `@tool` becomes a tool in manifest.json. Run `npm run manifest` after changing them.
 */
import { HostCode, HostError, ToolError, type AgentWarning, type Integer, type ToolContext } from "./executa/index.js";

/** What triage asks the model for: the host checks the answer against this JSON Schema. */
const TRIAGE_SCHEMA = {
  type: "object",
  properties: {
    category: { type: "string", enum: ["bug", "question", "feature", "other"] },
    urgency: { type: "integer", minimum: 1, maximum: 5 },
    summary: { type: "string" },
  },
  required: ["category", "urgency", "summary"],
  additionalProperties: false,
};

export interface Triage {
  category: "bug" | "question" | "feature" | "other";
  urgency: Integer;
  summary: string;
  /** Urgency 4 or 5: a person should look at it now. */
  escalate: boolean;
}

/**
 * Sort a support message into a category and an urgency with the host's model, as structured output.
 * @tool
 * @timeout 120
 */
export async function triage(
  {
    message,
  }: {
    /** The support message to triage. */
    message: string;
  },
  ctx: ToolContext,
): Promise<Triage> {
  const result = await ctx.host.sample({
    prompt: `Triage this support message. Urgency runs from 1 (whenever) to 5 (now).\n\n${message}`,
    maxTokens: 300,
    responseFormat: { type: "json_schema", json_schema: { name: "triage", schema: TRIAGE_SCHEMA } },
  });
  if (!result.structuredValid) throw new ToolError("The model's answer did not match the triage schema; try again.");
  const triaged = result.parsed as Omit<Triage, "escalate">;
  return { ...triaged, escalate: triaged.urgency >= 4 };
}

/**
 * Add to a named counter kept in the host's key-value storage, and return its new value.
 * @tool
 */
export async function tally(
  {
    name,
    by = 1,
    scope,
  }: {
    /** The counter's name. */
    name: string;
    /** How much to add (negative to subtract). */
    by?: Integer;
    /** Whose counter it is: the Anna app's ("app", the host's default when not given), this plugin's ("tool"), or the user's across plugins ("user"). */
    scope?: "tool" | "user" | "app";
  },
  ctx: ToolContext,
): Promise<{ name: string; count: Integer }> {
  const key = `tally/${name}`;
  for (let attempt = 0; attempt < 3; attempt++) {
    const current = await ctx.host.storage.get(key, { scope });
    const count = (typeof current.value === "number" ? current.value : 0) + by;
    try {
      // ifMatch: write only if nobody wrote the counter since we read it.
      await ctx.host.storage.set(key, count, { scope, ...(current.exists && { ifMatch: current.etag }) });
      return { name, count };
    } catch (err) {
      if (!(err instanceof HostError && err.code === HostCode.StoragePreconditionFailed)) throw err;
    }
  }
  throw new ToolError(`The counter ${name} kept changing while tally wrote it; try again.`);
}

/**
 * Answer a question in an agent session on the host, and say what the host warned about.
 * @tool
 * @timeout 300
 */
export async function research(
  {
    question,
  }: {
    /** The question to answer. */
    question: string;
  },
  ctx: ToolContext,
): Promise<{ answer: string; warnings: AgentWarning[] }> {
  ctx.progress({ step: 1, of: 2, doing: "starting an agent session" });
  const session = await ctx.host.agent.create({ label: "research", systemPrompt: "Answer briefly, and say what you are unsure of." });
  ctx.progress({ step: 2, of: 2, doing: "asking the agent" });
  const run = await session.run(question);
  return { answer: run.text, warnings: run.warnings };
}
