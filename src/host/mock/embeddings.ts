/**
 * `embeddings/create` (long reference §7.7): deterministic unit vectors from hashed words and
 * character trigrams, so the same text always gives the same vector and texts that share words
 * are closer than texts that share none.
 */
import { createHash } from "node:crypto";
import { EmbeddingsError } from "../../protocol/index.js";
import { ruleAnswer, tokensOf, type Call } from "./call.js";
import { refuse } from "./params.js";
import type { Answer } from "./types.js";

export const EMBEDDING_MODEL = "anna-managed-v1";
export const EMBEDDING_LIMITS = { dimensions: 1536, maxInputs: 2048, maxTokensPerInput: 8192 } as const;

export function embed(text: string, dimensions: number = EMBEDDING_LIMITS.dimensions): number[] {
  const v = new Float64Array(dimensions);
  const lower = text.toLowerCase();
  const features = [...(lower.match(/[\p{L}\p{N}]+/gu) ?? []).map((w) => `w:${w}`)];
  for (let i = 0; i + 3 <= lower.length; i++) features.push(`c:${lower.slice(i, i + 3)}`);
  if (features.length === 0) features.push(`empty:${text}`);
  for (const f of features) {
    const h = createHash("sha256").update(f).digest();
    const weight = f.startsWith("w:") ? 2 : 1;
    for (let k = 0; k < 4; k++) v[h.readUInt32BE(k * 4) % dimensions]! += (h[16 + k]! & 1 ? 1 : -1) * weight;
  }
  const norm = Math.sqrt(v.reduce((s, x) => s + x * x, 0)) || 1;
  return Array.from(v, (x) => Math.round((x / norm) * 1e6) / 1e6);
}

export function handleEmbeddings(call: Call): Answer {
  const { p } = call;
  const raw = p.raw.input;
  // The SDK wraps a single string in a list; a bare string is taken the same way.
  const input = typeof raw === "string" ? [raw] : raw;
  if (!Array.isArray(input) || input.length === 0 || input.some((s) => typeof s !== "string"))
    throw p.bad("input must be a non-empty list of strings");
  if (input.length > EMBEDDING_LIMITS.maxInputs)
    throw p.bad(`input has ${input.length} items; at most ${EMBEDDING_LIMITS.maxInputs} per request`);
  const texts = input as string[];
  const empty = texts.findIndex((t) => t.length === 0);
  if (empty >= 0) throw p.bad(`input[${empty}] is empty`);
  const long = texts.findIndex((t) => tokensOf(t) > EMBEDDING_LIMITS.maxTokensPerInput);
  if (long >= 0)
    throw refuse(
      EmbeddingsError.MAX_TOKENS_EXCEEDED,
      `MAX_TOKENS_EXCEEDED: input[${long}] is about ${tokensOf(texts[long]!)} tokens; the model takes at most ${EMBEDDING_LIMITS.maxTokensPerInput}`,
    );
  const model = p.string("model") ?? EMBEDDING_MODEL;
  if (model !== EMBEDDING_MODEL)
    throw p.bad(
      `model ${JSON.stringify(model)} is not a model alias of this host; use "${EMBEDDING_MODEL}" (or leave it out)`,
    );
  const rule = call.rule();
  if (rule) return ruleAnswer(rule);
  const tokens = texts.reduce((n, t) => n + tokensOf(t), 0);
  return {
    result: {
      object: "list",
      model,
      data: texts.map((t, index) => ({ object: "embedding", index, embedding: embed(t) })),
      usage: { prompt_tokens: tokens, total_tokens: tokens },
      _meta: {
        alias: model,
        dimensions: EMBEDDING_LIMITS.dimensions,
        backendModel: "executa-mock-hashing",
        provider: "executa-mock",
        latencyMs: 0,
        quotaConsumed: 0,
        costUsd: 0,
      },
    },
  };
}
