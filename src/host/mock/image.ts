/**
 * `image/generate` and `image/edit` (long reference §7.6): real PNG files of the requested size,
 * the same for the same request, served by the local server; references and masks made here are
 * checked (a missing one is REFERENCE_FETCH_FAILED, a mask of another size MASK_UNSUPPORTED).
 */
import { createHash } from "node:crypto";
import { ImageError } from "../../protocol/index.js";
import { QuotaExceeded, type BlobStore } from "./blobs.js";
import { ruleAnswer, type Call, type HostEnv } from "./call.js";
import { refuse, type Params } from "./params.js";
import { png, pngSize } from "./png.js";
import { swapUrlBase, TRANSCRIPT_URL_BASE } from "./transcript-urls.js";
import type { Answer } from "./types.js";

export const IMAGE_LIMITS = {
  promptChars: 4000,
  maxN: 4,
  minSide: 64,
  maxSide: 4096,
  dailyQuota: 50,
  maxReferences: 4,
  defaultSize: "1024x1024",
} as const;
export const MOCK_IMAGE_MODEL = "executa-mock-image";

interface Source {
  /** The PNG bytes when the host can see them (a URL of its own, a data URL); undefined for a remote URL. */
  bytes: Buffer | undefined;
}

function sizeOf(p: Params, fallback: string): { width: number; height: number; text: string } {
  const text = p.string("size") ?? fallback;
  const m = /^(\d{1,5})x(\d{1,5})$/.exec(text);
  const width = Number(m?.[1]);
  const height = Number(m?.[2]);
  const ok = (n: number) => n >= IMAGE_LIMITS.minSide && n <= IMAGE_LIMITS.maxSide;
  if (!m || !ok(width) || !ok(height))
    throw p.bad(
      `size must be "WIDTHxHEIGHT" with sides from ${IMAGE_LIMITS.minSide} to ${IMAGE_LIMITS.maxSide}, e.g. "1024x1024"; got ${JSON.stringify(text)}`,
    );
  return { width, height, text };
}

export class ImageService {
  private imagesToday = 0;

  constructor(
    private readonly env: HostEnv,
    private readonly blobs: BlobStore,
  ) {}

  async handle(call: Call): Promise<Answer> {
    const { p } = call;
    const edit = call.method === "image/edit";
    const prompt = p.requiredString("prompt", { max: IMAGE_LIMITS.promptChars });
    const n = p.integer("n", { min: 1 }) ?? 1;
    if (n > IMAGE_LIMITS.maxN)
      throw refuse(
        ImageError.MAX_IMAGES_EXCEEDED,
        `MAX_IMAGES_EXCEEDED: n ${n} is over the ${IMAGE_LIMITS.maxN} images one request may ask for`,
      );
    p.object("modelPreferences");
    p.object("metadata");
    let fallbackSize: string = IMAGE_LIMITS.defaultSize;
    // The image is named by the request; a URL of this host by its stable form, the same in every run.
    const stable = (url: string) => swapUrlBase(url, this.env.server.urlBase, TRANSCRIPT_URL_BASE);
    let seed = `${prompt}\0`;
    if (edit) {
      const imageUrl = p.requiredString("image_url");
      const image = this.source(p, "image_url", imageUrl);
      const size = image.bytes && pngSize(image.bytes);
      if (size) fallbackSize = `${size.width}x${size.height}`;
      const maskUrl = p.string("mask_url", { nonEmpty: true });
      if (maskUrl !== undefined) {
        const mask = this.source(p, "mask_url", maskUrl).bytes;
        const maskSize = mask && pngSize(mask);
        if (mask && !maskSize)
          throw refuse(
            ImageError.MASK_UNSUPPORTED,
            "MASK_UNSUPPORTED: mask_url must be a PNG (one channel, white where the image is edited)",
          );
        if (maskSize && size && (maskSize.width !== size.width || maskSize.height !== size.height)) {
          throw refuse(
            ImageError.MASK_UNSUPPORTED,
            `MASK_UNSUPPORTED: the mask is ${maskSize.width}x${maskSize.height} but the image is ${size.width}x${size.height}; they must be the same size`,
          );
        }
      }
      seed += `${stable(imageUrl)}\0${stable(maskUrl ?? "")}\0`;
    } else {
      const refs = p.stringList("reference_image_urls", { max: IMAGE_LIMITS.maxReferences }) ?? [];
      refs.forEach((url, i) => this.source(p, `reference_image_urls[${i}]`, url));
      seed += refs.map(stable).join("\0");
    }
    const size = sizeOf(p, fallbackSize);
    const rule = call.rule();
    if (rule) return ruleAnswer(rule);
    if (this.imagesToday + n > IMAGE_LIMITS.dailyQuota) {
      throw refuse(
        ImageError.QUOTA_EXCEEDED,
        `QUOTA_EXCEEDED: ${this.imagesToday} of the ${IMAGE_LIMITS.dailyQuota} images of today are used; this request asks for ${n}`,
      );
    }
    const images = [];
    for (let i = 0; i < n; i++) {
      const id = createHash("sha256").update(`${call.method}\0${seed}\0${size.text}\0${i}`).digest("hex").slice(0, 32);
      if (!this.blobs.has(id)) {
        try {
          this.blobs.put(await png(size.width, size.height, id), id);
        } catch (error) {
          if (error instanceof QuotaExceeded) throw refuse(ImageError.STORAGE_ERROR, `STORAGE_ERROR: ${error.message}`);
          throw error;
        }
      }
      const url = await this.env.server.getUrl(
        { expiresAt: Number.MAX_SAFE_INTEGER, contentType: "image/png", read: () => this.blobs.get(id) },
        id,
      );
      images.push({ url, mimeType: "image/png", width: size.width, height: size.height });
    }
    this.imagesToday += n;
    return {
      result: {
        images,
        model: MOCK_IMAGE_MODEL,
        quota_used: { images_today: this.imagesToday, images_quota: IMAGE_LIMITS.dailyQuota },
        _meta: { provider: "executa-mock", latencyMs: 0 },
      },
    };
  }

  /** A reference the model would fetch: a URL of this host must exist; a data URL must decode. */
  private source(p: Params, what: string, url: string): Source {
    if (url.startsWith("data:")) {
      const m = /^data:(image\/[\w.+-]+);base64,([A-Za-z0-9+/=\s]*)$/.exec(url);
      if (!m)
        throw refuse(
          ImageError.REFERENCE_FETCH_FAILED,
          `REFERENCE_FETCH_FAILED: ${what} is a data URL that is not a base64 image (data:image/png;base64,...)`,
        );
      return { bytes: Buffer.from(m[2]!, "base64") };
    }
    if (!/^https?:\/\//.test(url))
      throw p.bad(`${what} must be an http(s) or data: URL, got ${JSON.stringify(url.slice(0, 80))}`);
    const link = this.env.server.linkOf(url);
    if (!link && url.startsWith("http://127.0.0.1:")) {
      throw refuse(
        ImageError.REFERENCE_FETCH_FAILED,
        `REFERENCE_FETCH_FAILED: ${what} ${url.slice(0, 120)} is not an image this host serves (a URL from another run, or mistyped)`,
      );
    }
    if (!link) return { bytes: undefined }; // a remote URL: the mock host stays offline and takes it as is
    const bytes = this.env.clock() <= link.expiresAt ? link.read() : undefined;
    if (!bytes)
      throw refuse(
        ImageError.REFERENCE_FETCH_FAILED,
        `REFERENCE_FETCH_FAILED: ${what} no longer exists or its URL expired`,
      );
    return { bytes };
  }
}
