/**
 * The plugin's tools. Each exported function tagged `@tool` becomes a tool in manifest.json:
 * its summary is the description, `@timeout` its timeout in seconds, and each documented
 * property (or `@param`) a parameter. Run `npm run manifest` after changing them.
 */
import { createHmac } from "node:crypto";
import { HostCode, HostError, ToolError, type Integer, type ToolContext } from "./executa/index.js";

/** A word is a run of letters, digits, apostrophes and hyphens. */
const WORD = /[\p{L}\p{Nd}'-]+/gu;

const fold = {
  lower: (word: string) => word.toLowerCase(),
  upper: (word: string) => word.toUpperCase(),
  preserve: (word: string) => word,
};

export interface TextStats {
  words: Integer;
  characters: Integer;
  distinct_words: Integer;
  top: { word: string; count: Integer }[];
  reading_minutes: number;
}

/**
 * Count the words and characters in a text and list its most frequent words.
 * @tool
 * @timeout 10
 */
export function text_stats({
  text,
  top = 3,
  letter_case = "lower",
  ignore,
  words_per_minute = 238,
  unique = false,
}: {
  /** The text to analyse. */
  text: string;
  /** How many of the most frequent words to list. */
  top?: Integer;
  /** How to fold letter case before counting. */
  letter_case?: "lower" | "upper" | "preserve";
  /** Words to leave out of the counts. */
  ignore?: string[];
  /** Reading speed used to estimate the reading time. */
  words_per_minute?: number;
  /** Count each distinct word once. */
  unique?: boolean;
}): TextStats {
  if (top < 0) throw new ToolError(`top must be 0 or more (got ${top})`);
  if (!(words_per_minute > 0)) throw new ToolError(`words_per_minute must be greater than 0 (got ${words_per_minute})`);
  const foldCase = fold[letter_case];
  const ignored = new Set((ignore ?? []).map(foldCase));

  // word -> count; a Map keeps first-appearance order, and the sort below is stable.
  const counts = new Map<string, number>();
  let counted = 0;
  for (const match of text.match(WORD) ?? []) {
    const word = foldCase(match);
    if (ignored.has(word)) continue;
    counted++;
    counts.set(word, (counts.get(word) ?? 0) + 1);
  }

  const words = unique ? counts.size : counted;
  const ranked = Array.from(counts, ([word, count]) => ({ word, count }))
    .sort((a, b) => b.count - a.count || (a.word < b.word ? -1 : 1))
    .slice(0, top);
  return {
    words,
    characters: [...text].length,
    distinct_words: counts.size,
    top: ranked,
    reading_minutes: Math.round((words / words_per_minute) * 100) / 100,
  };
}

/**
 * Sign a message with HMAC-SHA256 using the SIGNING_SECRET credential.
 * @tool
 * @param message - The message to sign.
 */
export function sign_message(message: string, ctx: ToolContext): { algorithm: "HMAC-SHA256"; signature: string } {
  const secret = ctx.credential("SIGNING_SECRET");
  if (!secret) {
    throw new ToolError(
      "SIGNING_SECRET is not configured. Add it to this plugin's credentials in Anna, or export SIGNING_SECRET=... when running locally.",
    );
  }
  const signature = createHmac("sha256", secret).update(message, "utf8").digest("hex");
  return { algorithm: "HMAC-SHA256", signature };
}

/**
 * Summarize a text with the host's language model (needs an Anna host that speaks protocol 2.0 and grants sampling).
 * @tool
 * @timeout 120
 */
export async function summarize(
  {
    text,
    max_words = 50,
  }: {
    /** The text to summarize. */
    text: string;
    /** The longest summary to ask for, in words. */
    max_words?: Integer;
  },
  ctx: ToolContext,
): Promise<{ summary: string; model: string | null }> {
  if (max_words < 1) throw new ToolError(`max_words must be 1 or more (got ${max_words})`);
  try {
    const result = await ctx.host.sample({
      messages: [
        { role: "user", content: { type: "text", text: `Summarize the following text in at most ${max_words} words:\n\n${text}` } },
      ],
      maxTokens: Math.max(16, Math.min(8192, max_words * 4)),
      metadata: { tool: "summarize" },
    });
    return { summary: result.content?.text ?? "", model: result.model ?? null };
  } catch (err) {
    if (!(err instanceof HostError)) throw err;
    const hint = err.code === HostCode.SamplingNotGranted ? " Grant sampling to this plugin in Anna's settings." : "";
    throw new ToolError(`The host refused the sampling request: [${err.code}] ${err.message}${hint}`);
  }
}
