/**
 * `sampling/createMessage` and `agent/complete` (long reference §7.1): the request validated as
 * the host does, the per-invoke caps, structured output, and an MCP-shaped completion.
 */
import { SamplingError } from "../../protocol/index.js";
import { modelText, ruleAnswer, tokensOf, type Call, type HostEnv } from "./call.js";
import { isObject, refuse, type Params } from "./params.js";
import {
  applyFormat,
  formatText,
  isStructuredValid,
  readResponseFormat,
  type Applied,
  type FormatMeta,
  type FormatRequest,
} from "./response-format.js";
import type { Answer } from "./types.js";

/** Host caps (long reference §7.1). */
export const SAMPLING_LIMITS = { maxTokensPerCall: 8192, callsPerInvoke: 8, tokensPerInvoke: 32_000 } as const;
export const MOCK_MODEL = "executa-mock";

interface Message {
  role: string;
  text: string;
}

function readMessages(p: Params): Message[] {
  const messages = p.raw.messages;
  if (!Array.isArray(messages) || messages.length === 0)
    throw p.bad('messages must be a non-empty list of {role, content: {type: "text", text}}');
  return messages.map((m, i) => {
    if (!isObject(m)) throw p.bad(`messages[${i}] must be an object {role, content}`);
    if (m.role !== "user" && m.role !== "assistant" && m.role !== "system")
      throw p.bad(`messages[${i}].role must be "user", "assistant" or "system", got ${JSON.stringify(m.role)}`);
    const c = m.content;
    if (typeof c === "string")
      throw p.bad(
        `messages[${i}].content must be an object {type: "text", text: ${JSON.stringify(c.slice(0, 40))}}, not a bare string`,
      );
    if (!isObject(c)) throw p.bad(`messages[${i}].content must be an object {type: "text", text}`);
    if (c.type === "text") {
      if (typeof c.text !== "string") throw p.bad(`messages[${i}].content.text must be a string`);
      return { role: m.role, text: c.text };
    }
    if (c.type === "image" || c.type === "audio") {
      if (typeof c.data !== "string" || typeof c.mimeType !== "string")
        throw p.bad(`messages[${i}].content of type ${c.type} needs data (base64) and mimeType`);
      return { role: m.role, text: "" };
    }
    throw p.bad(`messages[${i}].content.type must be "text" (or "image", "audio"), got ${JSON.stringify(c.type)}`);
  });
}

function readModelPreferences(p: Params): void {
  const prefs = p.object("modelPreferences");
  if (!prefs) return;
  if (
    prefs.hints !== undefined &&
    (!Array.isArray(prefs.hints) || prefs.hints.some((h) => !isObject(h) || typeof h.name !== "string"))
  ) {
    throw p.bad("modelPreferences.hints must be a list of {name}");
  }
  for (const k of ["costPriority", "speedPriority", "intelligencePriority"]) {
    const v = prefs[k];
    if (v !== undefined && (typeof v !== "number" || v < 0 || v > 1))
      throw p.bad(`modelPreferences.${k} must be a number from 0 to 1`);
  }
}

interface Usage {
  calls: number;
  tokens: number;
}

export class SamplingService {
  private readonly usage = new Map<string, Usage>();

  constructor(private readonly env: HostEnv) {}

  async handle(call: Call): Promise<Answer> {
    const { p } = call;
    const messages = readMessages(p);
    let maxTokens = p.integer("maxTokens", { min: 1 });
    if (maxTokens === undefined) throw p.bad("maxTokens is required (a positive integer)");
    if (maxTokens > SAMPLING_LIMITS.maxTokensPerCall) {
      call.note(`maxTokens ${maxTokens} was capped at the host's ${SAMPLING_LIMITS.maxTokensPerCall}`);
      maxTokens = SAMPLING_LIMITS.maxTokensPerCall;
    }
    const system = p.string("systemPrompt");
    p.number("temperature", { min: 0, max: 2 });
    const stops = p.stringList("stopSequences") ?? [];
    readModelPreferences(p);
    const include = p.string("includeContext");
    if (include !== undefined && include !== "none")
      throw p.bad(`includeContext ${JSON.stringify(include)} is not supported; only "none" is`);
    p.object("metadata");
    p.number("_clientTimeoutS", { min: 0 });
    const format = await readResponseFormat(p);
    const onUnsupported = p.oneOf("onUnsupported", ["error", "json_object", "text"] as const, "error");
    const applied = format
      ? applyFormat(format, this.env.options.structuredOutput ?? "json_schema", onUnsupported)
      : undefined;

    const used = this.usage.get(call.invokeId) ?? { calls: 0, tokens: 0 };
    if (used.calls >= SAMPLING_LIMITS.callsPerInvoke) {
      throw refuse(
        SamplingError.MAX_CALLS_EXCEEDED,
        `MAX_CALLS_EXCEEDED: invoke ${call.invokeId} already made ${used.calls} sampling calls; the host allows ${SAMPLING_LIMITS.callsPerInvoke} per invoke`,
      );
    }
    if (used.tokens >= SAMPLING_LIMITS.tokensPerInvoke) {
      throw refuse(
        SamplingError.MAX_TOKENS_EXCEEDED,
        `MAX_TOKENS_EXCEEDED: invoke ${call.invokeId} already used ${used.tokens} tokens; the host allows ${SAMPLING_LIMITS.tokensPerInvoke} per invoke`,
      );
    }
    used.calls++;
    this.usage.set(call.invokeId, used);

    const prompt = [system, ...messages.map((m) => m.text)].filter(Boolean).join("\n");
    const lastUser = [...messages].reverse().find((m) => m.role === "user")?.text ?? "";
    const meta = async (text: string): Promise<FormatMeta | undefined> =>
      format && applied
        ? {
            type: applied.applied,
            requested: format.type,
            structuredValid: applied.applied !== "text" && (await isStructuredValid(text, format)),
            downgraded: applied.downgraded,
          }
        : undefined;

    const rule = call.rule();
    let answer: Answer;
    if (rule) {
      answer = ruleAnswer(rule);
      if ("result" in answer && isObject(answer.result)) answer = { result: await withFormatMeta(answer.result, meta) };
    } else {
      const said = await modelText(this.env, call, prompt, lastUser);
      answer =
        "answer" in said
          ? said.answer
          : {
              result: await completion(said.text, {
                prompt,
                maxTokens,
                stops,
                format,
                applied: applied?.applied,
                meta,
              }),
            };
    }
    if ("result" in answer && isObject(answer.result)) {
      const usage = answer.result.usage;
      used.tokens += isObject(usage) && typeof usage.totalTokens === "number" ? usage.totalTokens : 0;
    }
    return answer;
  }
}

async function withFormatMeta(
  result: Record<string, unknown>,
  meta: (text: string) => Promise<FormatMeta | undefined>,
): Promise<Record<string, unknown>> {
  const content = result.content;
  const existing = isObject(result._meta) ? result._meta : {};
  if (existing.responseFormat !== undefined || !isObject(content) || typeof content.text !== "string") return result;
  const m = await meta(content.text);
  return m ? { ...result, _meta: { ...existing, responseFormat: m } } : result;
}

async function completion(
  said: string,
  o: {
    prompt: string;
    maxTokens: number;
    stops: string[];
    format: FormatRequest | undefined;
    applied: Applied | undefined;
    meta: (text: string) => Promise<FormatMeta | undefined>;
  },
): Promise<Record<string, unknown>> {
  let text = o.format && o.applied ? formatText(said, o.applied, o.format) : said;
  let stopReason = "endTurn";
  if (!o.format || o.applied === "text") {
    const stop = o.stops
      .map((s) => (s ? text.indexOf(s) : -1))
      .filter((i) => i >= 0)
      .sort((a, b) => a - b)[0];
    if (stop !== undefined) {
      text = text.slice(0, stop);
      stopReason = "stopSequence";
    }
    if (tokensOf(text) > o.maxTokens) {
      text = text.slice(0, o.maxTokens * 4);
      stopReason = "maxTokens";
    }
  }
  const inputTokens = tokensOf(o.prompt);
  const outputTokens = tokensOf(text);
  const responseFormat = await o.meta(text);
  return {
    role: "assistant",
    content: { type: "text", text },
    model: MOCK_MODEL,
    stopReason,
    usage: { inputTokens, outputTokens, totalTokens: inputTokens + outputTokens },
    _meta: { provider: "executa-mock", latencyMs: 0, quotaConsumed: 0, ...(responseFormat && { responseFormat }) },
  };
}
