/**
 * The inspect server: node:http on 127.0.0.1 only, every request past the guard, the page (and
 * the cookie a link's one-time code buys) and its two assets from the package, the event
 * stream, and the API.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ExecutaError } from "../../common/errors.js";
import { Access } from "./access.js";
import { isPagePath, refusal } from "./guard.js";
import { HttpError, SECURITY_HEADERS, sendError, sendJson } from "./http.js";
import type { Inspector } from "./inspector.js";
import { handleApi, isApi } from "./routes.js";
import { pageAssets, type PageAssets } from "./assets.js";

export interface InspectServer {
  /** A link for the first page: its code works once, for LINK_LIFETIME_MS. */
  url: string;
  port: number;
  /** The session secret, for callers in this process (a page holds it only in its HttpOnly cookie). */
  token: string;
  /** Another one-time link; `onSpent` runs once it is used or has expired. */
  newLink(onSpent?: () => void): string;
  close(): Promise<void>;
}

export interface ServerOptions {
  /** Where a fresh link goes when a visit came without the cookie or a live code (the terminal). */
  printLink?: (url: string) => void;
}

export const LOOPBACK = "127.0.0.1";

/** The page for a live code (setting the cookie) or the cookie; otherwise a note, and a fresh link in the terminal. */
function servePage(
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  assets: PageAssets,
  access: Access,
  printLink: () => void,
): void {
  const code = url.searchParams.get("code");
  const redeemed = code !== null && access.redeem(code);
  const html = {
    ...SECURITY_HEADERS,
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": assets.csp,
  };
  if (redeemed || access.admits(req)) {
    res.writeHead(200, { ...html, ...(redeemed && { "Set-Cookie": access.setCookie() }) });
    res.end(assets.html);
    return;
  }
  if (access.mayPrintLink()) printLink();
  res.writeHead(403, html);
  res.end(assets.refused);
}

function serveAsset(res: ServerResponse, assets: PageAssets, path: string): boolean {
  const asset = assets.files.get(path);
  if (!asset) return false;
  res.writeHead(200, { ...SECURITY_HEADERS, "Content-Type": asset.type, "Content-Length": asset.body.length });
  res.end(asset.body);
  return true;
}

interface Context {
  inspector: Inspector;
  assets: PageAssets;
  access: Access;
  port: () => number;
  printLink: () => void;
}

async function handle(
  { inspector, assets, access, port, printLink }: Context,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const refused = refusal(req, access, port());
  if (refused) return sendJson(res, refused.status, { error: { message: refused.reason } });
  const url = new URL(req.url ?? "/", `http://${LOOPBACK}`);
  if (req.method === "GET" && isPagePath(url.pathname)) return servePage(req, res, url, assets, access, printLink);
  if (req.method === "GET" && url.pathname === "/events") return inspector.stream.attach(res, SECURITY_HEADERS);
  if (isApi(url.pathname)) return handleApi(inspector, req, res, url);
  if (req.method === "GET" && serveAsset(res, assets, url.pathname)) return;
  throw new HttpError(404, `nothing at ${url.pathname}`);
}

/** Listens on 127.0.0.1 (port 0: a free one) and resolves once it does. */
export async function startServer(
  inspector: Inspector,
  port: number,
  options: ServerOptions = {},
): Promise<InspectServer> {
  const assets = pageAssets();
  let bound = port;
  const access = new Access(() => bound);
  const link = (onSpent?: () => void) => `http://${LOOPBACK}:${bound}/?code=${access.newCode(onSpent)}`;
  const printLink = () => options.printLink?.(link());
  const context: Context = { inspector, assets, access, port: () => bound, printLink };
  const server: Server = createServer((req, res) => {
    handle(context, req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else sendError(res, error);
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 0; // an invoke may wait minutes for an answer typed by hand
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE")
        reject(
          new ExecutaError(`port ${port} on ${LOOPBACK} is in use`, {
            hint: "choose another with --port, or leave --port out for a free one",
          }),
        );
      else if (error.code === "EACCES")
        reject(
          new ExecutaError(`port ${port} on ${LOOPBACK} needs privileges`, {
            hint: "use a port above 1023, or leave --port out",
          }),
        );
      else reject(error);
    });
    server.listen(port, LOOPBACK, () => resolve());
  });
  bound = (server.address() as AddressInfo).port;
  return {
    url: link(),
    port: bound,
    token: access.token,
    newLink: link,
    close: () =>
      new Promise<void>((resolve) => {
        access.close();
        inspector.stream.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
