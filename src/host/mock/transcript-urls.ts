/**
 * The mock host's URLs in a recorded transcript. They are real URLs (a plugin fetches them with
 * its own HTTP client), so they start with a base that differs every run: 127.0.0.1, a free port
 * and a random token. A transcript writes that base as TRANSCRIPT_URL_BASE, and a replay reads it
 * as its own host's base, so a recorded URL means the same object in the replay.
 */
export const TRANSCRIPT_URL_BASE = "http://executa-mock.invalid";

/** `value` with `from` replaced by `to` wherever it occurs in its strings (both are plain URL text: nothing JSON escapes). */
export function swapUrlBase<T>(value: T, from: string | undefined, to: string): T {
  if (!from || value === undefined) return value;
  const text = JSON.stringify(value);
  return text.includes(from) ? (JSON.parse(text.replaceAll(from, to)) as T) : value;
}
