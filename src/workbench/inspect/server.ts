/**
 * The inspect server: node:http on 127.0.0.1 only, every request past the guard, the page and
 * its two assets from the package, the event stream, and the API.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { ExecutaError } from "../../common/errors.js";
import { refusal, newToken } from "./guard.js";
import { HttpError, SECURITY_HEADERS, sendError, sendJson } from "./http.js";
import type { Inspector } from "./inspector.js";
import { handleApi, isApi } from "./routes.js";
import { pageAssets, type PageAssets } from "./assets.js";

export interface InspectServer {
  url: string;
  port: number;
  token: string;
  close(): Promise<void>;
}

export const LOOPBACK = "127.0.0.1";

function serveAsset(res: ServerResponse, assets: PageAssets, path: string, token: string): boolean {
  if (path === "/" || path === "/index.html") {
    res.writeHead(200, { ...SECURITY_HEADERS, "Content-Type": "text/html; charset=utf-8", "Content-Security-Policy": assets.csp });
    res.end(assets.html(token));
    return true;
  }
  const asset = assets.files.get(path);
  if (!asset) return false;
  res.writeHead(200, { ...SECURITY_HEADERS, "Content-Type": asset.type, "Content-Length": asset.body.length });
  res.end(asset.body);
  return true;
}

async function handle(inspector: Inspector, assets: PageAssets, token: string, port: () => number, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const refused = refusal(req, token, port());
  if (refused) return sendJson(res, refused.status, { error: { message: refused.reason } });
  const url = new URL(req.url ?? "/", `http://${LOOPBACK}`);
  if (req.method === "GET" && url.pathname === "/events") return inspector.stream.attach(res, SECURITY_HEADERS);
  if (isApi(url.pathname)) return handleApi(inspector, req, res, url);
  if (req.method === "GET" && serveAsset(res, assets, url.pathname, token)) return;
  throw new HttpError(404, `nothing at ${url.pathname}`);
}

/** Listens on 127.0.0.1 (port 0: a free one) and resolves once it does. */
export async function startServer(inspector: Inspector, port: number): Promise<InspectServer> {
  const token = newToken();
  const assets = pageAssets();
  let bound = port;
  const server: Server = createServer((req, res) => {
    handle(inspector, assets, token, () => bound, req, res).catch((error: unknown) => {
      if (res.headersSent) res.destroy();
      else sendError(res, error);
    });
  });
  server.headersTimeout = 10_000;
  server.requestTimeout = 0; // an invoke may wait minutes for an answer typed by hand
  await new Promise<void>((resolve, reject) => {
    server.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "EADDRINUSE") reject(new ExecutaError(`port ${port} on ${LOOPBACK} is in use`, { hint: "choose another with --port, or leave --port out for a free one" }));
      else if (error.code === "EACCES") reject(new ExecutaError(`port ${port} on ${LOOPBACK} needs privileges`, { hint: "use a port above 1023, or leave --port out" }));
      else reject(error);
    });
    server.listen(port, LOOPBACK, () => resolve());
  });
  bound = (server.address() as AddressInfo).port;
  return {
    url: `http://${LOOPBACK}:${bound}/?token=${token}`,
    port: bound,
    token,
    close: () =>
      new Promise<void>((resolve) => {
        inspector.stream.close();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
