/** What a service gets for one reverse request, and what it shares with the other services. */
import type { BlobStore } from "./blobs.js";
import type { Params } from "./params.js";
import type { MockRule } from "./rules.js";
import type { MockServer } from "./server.js";
import type { Answer, ManualReply, MockHostOptions, ReverseRecord, SamplingMode } from "./types.js";

export interface HostEnv {
  options: MockHostOptions;
  /** Milliseconds since the epoch. */
  clock(): number;
  sampling(): SamplingMode;
  server: MockServer;
  /** files/* bytes: in the storage folder when there is one. */
  persistent: BlobStore;
  /** Uploads and generated images: in memory. */
  transient: BlobStore;
  /** The next id of a kind (32 hex digits): the same seed and requests give the same ids. */
  nextId(kind: string): string;
}

export interface Call {
  method: string;
  params: Record<string, unknown>;
  /** Typed reads that refuse with the family's INVALID_REQUEST code. */
  p: Params;
  /** The invoke the request was attributed to. */
  invokeId: string;
  /** The plugin's tool id (its manifest name); before any describe, the name of the invoked tool. */
  toolId: string;
  record: ReverseRecord;
  /** The mock rule that answers this request (first match wins), if any; marks it used. */
  rule(): MockRule | undefined;
  /** Something for the author to know, shown with the request. */
  note(text: string): void;
}

/** A rule's answer as is (`events` rows are turned into answers by the agent service). */
export function ruleAnswer(rule: MockRule): Answer {
  return rule.error ? { error: rule.error } : { result: structuredClone(rule.result ?? null) };
}

export const iso = (ms: number): string => new Date(ms).toISOString();

/** The model's text for a prompt, from the sampling mode; a manual reply may be a whole answer. */
export async function modelText(
  env: HostEnv,
  call: Call,
  prompt: string,
  echo: string,
): Promise<{ text: string } | { answer: Answer }> {
  const mode = env.sampling();
  if (mode.kind === "canned") return { text: mode.text };
  if (mode.kind === "echo") return { text: echo };
  call.record.answeredBy = "manual";
  const reply: ManualReply = await mode.answer({
    method: call.method,
    params: call.params,
    record: call.record,
    prompt,
  });
  return "text" in reply ? { text: reply.text } : { answer: reply };
}

/** About four characters a token, as providers count English. */
export const tokensOf = (text: string): number => Math.ceil(text.length / 4);
