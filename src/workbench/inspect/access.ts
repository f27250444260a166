/**
 * How a browser gets into the inspect page without the server's token ever leaving the process
 * in a URL, an argument or a log: every link carries a one-time code, short-lived, which the page
 * load exchanges for the token in an HttpOnly, SameSite=Strict cookie. A code is spent on first
 * use; a visit without a cookie or a live code makes the terminal print a fresh link.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export const TOKEN_HEADER = "x-executa-token";
/** How long a link's code can be used (once). */
export const LINK_LIFETIME_MS = 2 * 60_000;
/** Links waiting to be used; an older one goes when a newer one is made. */
const MAX_LIVE_CODES = 8;
/** Fresh links a refused visit may print, at most one per this many ms (a local user could knock often). */
const LINK_REQUEST_INTERVAL_MS = 1000;

function secret(): string {
  return randomBytes(32).toString("base64url");
}

function same(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

interface Code {
  expires: number;
  onSpent: (() => void) | undefined;
  timer: NodeJS.Timeout;
}

export class Access {
  /** The session secret: sent once per browser in Set-Cookie, accepted in the cookie or the header. */
  readonly token = secret();
  private readonly codes = new Map<string, Code>();
  private lastLinkRequest = 0;

  /** Cookies ignore ports, so each server names its own. */
  constructor(
    private readonly port: () => number,
    private readonly lifetimeMs = LINK_LIFETIME_MS,
  ) {}

  get cookieName(): string {
    return `executa-inspect-${this.port()}`;
  }

  /** A new one-time code; `onSpent` runs once it is used or has expired. */
  newCode(onSpent?: () => void): string {
    const code = secret();
    const timer = setTimeout(() => this.spend(code), this.lifetimeMs).unref();
    this.codes.set(code, { expires: Date.now() + this.lifetimeMs, onSpent, timer });
    if (this.codes.size > MAX_LIVE_CODES) this.spend(this.codes.keys().next().value!);
    return code;
  }

  private spend(code: string): void {
    const entry = this.codes.get(code);
    if (!entry) return;
    this.codes.delete(code);
    clearTimeout(entry.timer);
    entry.onSpent?.();
  }

  /** Whether the code is live; it is spent either way. */
  redeem(code: string): boolean {
    for (const [known, entry] of this.codes) {
      if (!same(code, known)) continue;
      this.spend(known);
      return entry.expires > Date.now();
    }
    return false;
  }

  /** Whether the request carries the token, in the header (scripts, tests) or the cookie (the page). */
  admits(req: Pick<IncomingMessage, "headers">): boolean {
    const header = req.headers[TOKEN_HEADER];
    const given = typeof header === "string" ? header : cookieValue(req.headers.cookie, this.cookieName);
    return given !== undefined && same(given, this.token);
  }

  setCookie(): string {
    return `${this.cookieName}=${this.token}; Path=/; HttpOnly; SameSite=Strict`;
  }

  /** Whether a refused visit may have a fresh link printed now. */
  mayPrintLink(): boolean {
    const now = Date.now();
    if (now - this.lastLinkRequest < LINK_REQUEST_INTERVAL_MS) return false;
    this.lastLinkRequest = now;
    return true;
  }

  close(): void {
    for (const code of [...this.codes.keys()]) this.spend(code);
  }
}
