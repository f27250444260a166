/**
 * The mock host's object store endpoint: presigned PUT URLs that really take the bytes (answering
 * an ETag) and GET URLs for downloads and generated images. It listens on 127.0.0.1 only, on a
 * random port, starts on first need, and every URL carries a random token. A URL names a ticket
 * or a link the host made, by an id of its own (from the mock host's ids, so a replay makes the
 * same ones): nothing a plugin sends becomes a path. The origin and the token, the parts that
 * differ every run, form the URLs' `base`.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { remember } from "./bounded.js";
import type { IdSource } from "./ids.js";

export interface PutTicket {
  /** Milliseconds since the epoch. */
  expiresAt: number;
  maxBytes: number;
  /** When set, the PUT must send this Content-Type (it was part of the signature). */
  contentType?: string;
  /** Takes the bytes; returns the ETag to answer, or throws an Error whose message is the 4xx reason. */
  accept(bytes: Buffer, contentType: string | undefined): string;
}

export interface GetLink {
  expiresAt: number;
  contentType: string;
  /** The bytes now, or undefined when the object is gone. */
  read(): Buffer | undefined;
}

export class MockServer {
  private server: Server | undefined;
  /** The base of every URL (origin and token), once listening; node:http is loaded only when a URL is first needed. */
  private starting: Promise<string> | undefined;
  private listeningBase: string | undefined;
  private closed = false;
  private readonly token = randomBytes(24).toString("base64url");
  private readonly tickets = new Map<string, PutTicket>();
  private readonly links = new Map<string, GetLink>();

  constructor(
    private readonly clock: () => number,
    private readonly ids: IdSource,
  ) {}

  /** A presigned PUT URL for this ticket. */
  async putUrl(ticket: PutTicket): Promise<string> {
    const id = this.ids.next("put-url");
    remember(this.tickets, id, ticket);
    return `${await this.base()}/put/${id}`;
  }

  /** A GET URL; `id` names it by its content (generated images), else it is the next id. */
  async getUrl(link: GetLink, id: string = this.ids.next("get-url")): Promise<string> {
    remember(this.links, id, link);
    return `${await this.base()}/get/${id}`;
  }

  /** The link behind a URL of this server (for image/edit of an image made here), if any. */
  linkOf(url: string): GetLink | undefined {
    const prefix = `${this.listeningBase}/get/`;
    return this.listeningBase && url.startsWith(prefix) ? this.links.get(url.slice(prefix.length)) : undefined;
  }

  /** `http://127.0.0.1:<port>/<token>`, what every URL of this server starts with; undefined until the first URL was made. */
  get urlBase(): string | undefined {
    return this.listeningBase;
  }

  async close(): Promise<void> {
    this.closed = true;
    const server = this.server;
    this.server = undefined;
    if (!server) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /** The URLs' base, starting the server if it is not listening yet. */
  base(): Promise<string> {
    if (this.closed) return Promise.reject(new Error("the mock host is closed"));
    this.starting ??= import("node:http").then(
      ({ createServer }) =>
        new Promise((resolve, reject) => {
          const server = createServer((req, res) => this.serve(req, res));
          server.on("error", reject);
          server.listen(0, "127.0.0.1", () => {
            server.unref();
            this.server = server;
            this.listeningBase = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${this.token}`;
            resolve(this.listeningBase);
          });
        }),
    );
    return this.starting;
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    const answer = (status: number, text: string, headers: Record<string, string | number> = {}) => {
      res.writeHead(status, {
        "Content-Type": "text/plain; charset=utf-8",
        "Content-Length": Buffer.byteLength(text),
        ...headers,
      });
      res.end(req.method === "HEAD" ? undefined : text);
    };
    const port = (this.server?.address() as AddressInfo | null)?.port;
    const host = req.headers.host ?? "";
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return answer(421, "wrong Host header\n");
    const [, token = "", kind = "", id = "", ...rest] = (req.url ?? "").split("?")[0]!.split("/");
    const given = Buffer.from(token);
    const ours = Buffer.from(this.token);
    const tokenOk = given.length === ours.length && timingSafeEqual(given, ours);
    if (!tokenOk || rest.length) return answer(404, "not found\n");
    if (kind === "put") {
      const ticket = this.tickets.get(id);
      if (!ticket) return answer(404, "not found\n");
      if (req.method !== "PUT") return answer(405, "this presigned URL takes PUT\n", { Allow: "PUT" });
      return this.receive(req, ticket, answer);
    }
    const link = kind === "get" ? this.links.get(id) : undefined;
    if (!link) return answer(404, "not found\n");
    if (req.method !== "GET" && req.method !== "HEAD")
      return answer(405, "this URL takes GET\n", { Allow: "GET, HEAD" });
    if (this.clock() > link.expiresAt) return answer(403, "Request has expired: ask the host for a new URL\n");
    const bytes = link.read();
    if (!bytes) return answer(404, "the object no longer exists\n");
    res.writeHead(200, { "Content-Type": link.contentType, "Content-Length": bytes.length });
    res.end(req.method === "HEAD" ? undefined : bytes);
  }

  private receive(
    req: IncomingMessage,
    ticket: PutTicket,
    answer: (status: number, text: string, headers?: Record<string, string>) => void,
  ): void {
    if (this.clock() > ticket.expiresAt)
      return answer(403, "Request has expired: call upload_begin (or negotiate) again for a new URL\n");
    const type = req.headers["content-type"];
    if (ticket.contentType !== undefined && type?.trim().toLowerCase() !== ticket.contentType.trim().toLowerCase()) {
      return answer(
        403,
        `SignatureDoesNotMatch: this URL was signed for Content-Type ${JSON.stringify(ticket.contentType)}, the PUT sent ${type === undefined ? "none" : JSON.stringify(type)}; send the headers the host returned with the URL\n`,
      );
    }
    const declared = Number(req.headers["content-length"]);
    if (declared > ticket.maxBytes)
      return answer(413, `EntityTooLarge: at most ${ticket.maxBytes} bytes may be PUT to this URL\n`, {
        Connection: "close",
      });
    const chunks: Buffer[] = [];
    let size = 0;
    let overflow = false;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > ticket.maxBytes) overflow = true;
      else chunks.push(chunk);
    });
    req.on("end", () => {
      if (overflow) return answer(413, `EntityTooLarge: at most ${ticket.maxBytes} bytes may be PUT to this URL\n`);
      try {
        const etag = ticket.accept(Buffer.concat(chunks), type);
        answer(200, "", { ETag: etag });
      } catch (error) {
        answer(507, `${(error as Error).message}\n`);
      }
    });
    req.on("error", () => undefined);
  }
}
