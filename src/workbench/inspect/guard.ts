/**
 * Who may talk to the workbench server: a local web server that starts processes is a target
 * (the MCP Inspector's CVE-2025-49596 came from an unauthenticated local proxy). Every request
 * must carry the token (header, or `?token=` where a browser cannot set headers: the page itself,
 * its assets and the event stream), name our own address in Host (no DNS rebinding), and come
 * from no other origin than ours. POSTs must say they are JSON, which a cross-site form cannot.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage } from "node:http";

export const TOKEN_HEADER = "x-executa-token";

export function newToken(): string {
  return randomBytes(32).toString("base64url");
}

export interface Refusal {
  status: 400 | 403 | 415;
  reason: string;
}

function sameToken(given: string, token: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The hosts the server answers to: its loopback address and `localhost`, on its own port. */
export function allowedHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

/** Why the request is refused, or undefined when it may go on. */
export function refusal(req: Pick<IncomingMessage, "headers" | "method" | "url">, token: string, port: number): Refusal | undefined {
  const host = req.headers.host?.toLowerCase();
  if (!host || !allowedHosts(port).includes(host)) return { status: 403, reason: `the Host header ${JSON.stringify(host ?? "")} is not this server's address` };
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedHosts(port).some((h) => origin.toLowerCase() === `http://${h}`)) {
    return { status: 403, reason: `requests from the origin ${JSON.stringify(origin)} are refused` };
  }
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none") return { status: 403, reason: `a ${site} request is refused` };
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  const header = req.headers[TOKEN_HEADER];
  const given = typeof header === "string" ? header : url.searchParams.get("token");
  if (!given || !sameToken(given, token)) return { status: 403, reason: "the token is missing or wrong: open the URL that executa inspect printed" };
  if (req.method === "POST" && !/^application\/json\b/i.test(req.headers["content-type"] ?? "")) {
    return { status: 415, reason: "a POST must be application/json" };
  }
  if (req.method !== "GET" && req.method !== "POST") return { status: 400, reason: `method ${req.method} is not served` };
  return undefined;
}
