/** The host's other models: `embeddings/create` and `image/generate` / `image/edit`. */
import type { InvokeRequests } from "./host.js";
import { isObject } from "./validate.js";

export interface EmbeddingsResult {
  object?: string;
  model?: string;
  data: { object?: string; index: number; embedding: number[] }[];
  usage?: Record<string, number>;
  _meta?: Record<string, unknown>;
  /** The embeddings in input order (by `index`). */
  vectors: number[][];
  [key: string]: unknown;
}

export interface ImageOptions {
  /** How many images (1 by default). */
  n?: number;
  /** `"WIDTHxHEIGHT"`, e.g. `"1024x1024"`. */
  size?: string;
  modelPreferences?: Record<string, unknown>;
  metadata?: Record<string, unknown>;
  /** How long to wait for the host, in ms (120 s by default, never past the invoke's deadline). */
  timeoutMs?: number;
}

export interface ImageResult {
  images: { url: string; mimeType: string; width?: number; height?: number }[];
  model: string;
  quota_used: Record<string, unknown>;
  _meta?: Record<string, unknown>;
  [key: string]: unknown;
}

export interface ImageClient {
  /** `image/generate` (needs `llm.image`). */
  generate(request: ImageOptions & { prompt: string; referenceImageUrls?: string[] }): Promise<ImageResult>;
  /** `image/edit` (needs `llm.image.edit`): `maskUrl` is a one-channel PNG of the same size, white where the image is edited. */
  edit(request: ImageOptions & { imageUrl: string; prompt: string; maskUrl?: string }): Promise<ImageResult>;
}

export interface EmbeddingsClient {
  /** `embeddings/create` (needs `llm.embed`): one string or a non-empty list; `model` defaults to the host's alias. */
  create(input: string | string[], options?: { model?: string; timeoutMs?: number }): Promise<EmbeddingsResult>;
}

/** The members that are given. */
const given = (members: Record<string, unknown>) => Object.fromEntries(Object.entries(members).filter(([, v]) => v !== undefined));

export function embeddingsClient(r: InvokeRequests): EmbeddingsClient {
  return {
    create: async (input, options = {}) => {
      const method = "embeddings/create";
      const list: unknown = typeof input === "string" ? [input] : input;
      if (!Array.isArray(list) || list.length === 0) throw r.invalid(method, "input must be a string or a non-empty list of strings");
      const bad = list.findIndex((item) => typeof item !== "string");
      if (bad >= 0) throw r.invalid(method, `input[${bad}] is not a string`);
      const result = await r.call(method, { input: list, ...given({ model: options.model }) }, options.timeoutMs);
      const data = (Array.isArray(result.data) ? result.data : []).filter(isObject) as EmbeddingsResult["data"];
      const vectors = [...data].sort((a, b) => a.index - b.index).map((d) => d.embedding);
      return { ...result, data, vectors };
    },
  };
}

export function imageClient(r: InvokeRequests): ImageClient {
  const common = (o: ImageOptions) => ({ n: o.n ?? 1, ...given({ size: o.size, modelPreferences: o.modelPreferences, metadata: o.metadata }) });
  return {
    generate: async (o) =>
      (await r.call("image/generate", { prompt: o.prompt, ...common(o), ...given({ reference_image_urls: o.referenceImageUrls }) }, o.timeoutMs)) as ImageResult,
    edit: async (o) =>
      (await r.call("image/edit", { image_url: o.imageUrl, prompt: o.prompt, ...common(o), ...given({ mask_url: o.maskUrl }) }, o.timeoutMs)) as ImageResult,
  };
}
