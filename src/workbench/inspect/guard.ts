/**
 * Who may talk to the workbench server: a local web server that starts processes is a target
 * (the MCP Inspector's CVE-2025-49596 came from an unauthenticated local proxy). Every request
 * must name our own address in Host (no DNS rebinding). The page itself (`/`) holds no secret and
 * decides on its own who gets in (access.ts: a one-time code or the cookie). Everything else must
 * carry the token (cookie or header), come from no other origin than ours, and a POST must say
 * it is JSON, which a cross-site form cannot.
 */
import type { IncomingMessage } from "node:http";
import type { Access } from "./access.js";

export interface Refusal {
  status: 400 | 403 | 415;
  reason: string;
}

/** The hosts the server answers to: its loopback address and `localhost`, on its own port (a browser leaves out port 80). */
export function allowedHosts(port: number): string[] {
  const hosts = [`127.0.0.1:${port}`, `localhost:${port}`];
  return port === 80 ? [...hosts, "127.0.0.1", "localhost"] : hosts;
}

/** The page's own paths, which a link (from a terminal, an opener, another site) navigates to. */
export function isPagePath(pathname: string): boolean {
  return pathname === "/" || pathname === "/index.html";
}

/** Why the request is refused, or undefined when it may go on. */
export function refusal(
  req: Pick<IncomingMessage, "headers" | "method" | "url">,
  access: Pick<Access, "admits">,
  port: number,
): Refusal | undefined {
  const host = req.headers.host?.toLowerCase();
  if (!host || !allowedHosts(port).includes(host))
    return { status: 403, reason: `the Host header ${JSON.stringify(host ?? "")} is not this server's address` };
  const url = new URL(req.url ?? "/", "http://127.0.0.1");
  if (req.method === "GET" && isPagePath(url.pathname)) return undefined;
  const origin = req.headers.origin;
  if (origin !== undefined && !allowedHosts(port).some((h) => origin.toLowerCase() === `http://${h}`)) {
    return { status: 403, reason: `requests from the origin ${JSON.stringify(origin)} are refused` };
  }
  const site = req.headers["sec-fetch-site"];
  if (site !== undefined && site !== "same-origin" && site !== "none")
    return { status: 403, reason: `a ${site} request is refused` };
  if (!access.admits(req))
    return { status: 403, reason: "the token is missing or wrong: open the link that executa inspect printed" };
  if (req.method === "POST" && !/^application\/json\b/i.test(req.headers["content-type"] ?? "")) {
    return { status: 415, reason: "a POST must be application/json" };
  }
  if (req.method !== "GET" && req.method !== "POST")
    return { status: 400, reason: `method ${req.method} is not served` };
  return undefined;
}
