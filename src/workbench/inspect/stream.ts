/**
 * The event stream to the open pages (server-sent events): trace entries batched every 50 ms,
 * state changes as they happen, and a comment line every 15 s that keeps the connection open.
 * Every event carries a revision (its SSE id); a state snapshot says the revision it is as new as,
 * so a page that loads one while events arrive applies only the newer events. A client that
 * does not read (more than MAX_BUFFERED_BYTES waiting for it) is dropped: its page reconnects
 * and loads the state again, and the server never buffers without limit.
 */
import type { ServerResponse } from "node:http";
import type { StreamEvents, TraceEntry } from "./wire.js";

const BATCH_MS = 50;
const KEEPALIVE_MS = 15_000;
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

type Client = Pick<ServerResponse, "write" | "end" | "destroy" | "on" | "writeHead" | "writableLength">;

export class EventStream {
  private readonly clients = new Set<Client>();
  /** The revision of the last event written. */
  rev = 0;
  private batch = new Map<number, TraceEntry>();
  private timer: NodeJS.Timeout | undefined;
  private readonly keepalive = setInterval(() => this.write(": keepalive\n\n"), KEEPALIVE_MS).unref();

  get size(): number {
    return this.clients.size;
  }

  /** Takes over the response as an event stream until the page goes away. */
  attach(res: Client, headers: Record<string, string>): void {
    res.writeHead(200, { ...headers, "Content-Type": "text/event-stream; charset=utf-8", Connection: "keep-alive" });
    res.write("retry: 1000\n\n");
    this.clients.add(res);
    res.on("close", () => this.clients.delete(res));
  }

  send<K extends keyof StreamEvents>(event: K, data: StreamEvents[K]): void {
    if (event === "trace") {
      for (const e of data as TraceEntry[]) this.batch.set(e.n, e);
      this.timer ??= setTimeout(() => this.flush(), BATCH_MS);
      return;
    }
    this.flush();
    this.write(`id: ${++this.rev}\nevent: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  }

  /** Trace entries waiting for the next batch go out now (before a state change, to keep the order). */
  flush(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (!this.batch.size) return;
    const entries = [...this.batch.values()];
    this.batch = new Map();
    this.write(`id: ${++this.rev}\nevent: trace\ndata: ${JSON.stringify(entries)}\n\n`);
  }

  private write(text: string): void {
    for (const res of this.clients) {
      if (res.writableLength > MAX_BUFFERED_BYTES) {
        this.clients.delete(res);
        res.destroy();
      } else res.write(text);
    }
  }

  close(): void {
    this.flush();
    clearInterval(this.keepalive);
    for (const res of this.clients) res.end();
    this.clients.clear();
  }
}
