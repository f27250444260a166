/**
 * The page's line to its server: JSON calls and the event stream, authenticated by the HttpOnly
 * cookie the link's one-time code bought (the page never sees the token). The spent code leaves
 * the address bar and the history at once.
 */
import type { StreamEvents } from "../inspect/wire.js";

if (location.search) history.replaceState(null, "", `${location.pathname}${location.hash}`);

export class ApiFailure extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly hint?: string,
  ) {
    super(message);
  }
}

async function call(method: "GET" | "POST", path: string, body?: unknown): Promise<Response> {
  const res = await fetch(path, {
    method,
    headers: method === "POST" ? { "Content-Type": "application/json" } : {},
    ...(method === "POST" && { body: JSON.stringify(body ?? {}) }),
  });
  if (!res.ok) {
    let message = `${res.status} ${res.statusText}`;
    let hint: string | undefined;
    try {
      const e = (await res.json()) as { error?: { message?: string; hint?: string } };
      if (e.error?.message) message = e.error.message;
      hint = e.error?.hint;
    } catch {
      // not JSON: keep the status line
    }
    throw new ApiFailure(message, res.status, hint);
  }
  return res;
}

export async function get<T>(path: string): Promise<T> {
  return (await (await call("GET", path)).json()) as T;
}

export async function post<T>(path: string, body: unknown = {}): Promise<T> {
  return (await (await call("POST", path, body)).json()) as T;
}

/** A download the server answers (an export): the body as a Blob. */
export async function fetchBlob(method: "GET" | "POST", path: string, body?: unknown): Promise<Blob> {
  return (await call(method, path, body)).blob();
}

export type StreamHandlers = { [K in keyof StreamEvents]: (data: StreamEvents[K]) => void };
export type StreamEvent = {
  [K in keyof StreamEvents]: { name: K; data: StreamEvents[K]; rev: number };
}[keyof StreamEvents];

/**
 * Subscribes to the server's events, each with its revision; `onOpen` runs each time the stream
 * (re)connects, when the page must load the state again (events may have been missed).
 */
export function openStream(
  names: readonly (keyof StreamEvents)[],
  onEvent: (event: StreamEvent) => void,
  status: (connected: boolean) => void,
  onOpen: () => void,
): EventSource {
  const source = new EventSource("/events");
  source.addEventListener("open", () => {
    status(true);
    onOpen();
  });
  source.addEventListener("error", () => status(false));
  for (const name of names) {
    source.addEventListener(name, (event) => {
      const e = event as MessageEvent<string>;
      onEvent({ name, data: JSON.parse(e.data), rev: Number(e.lastEventId) } as StreamEvent);
    });
  }
  return source;
}
