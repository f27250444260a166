/**
 * Shared by the inspect tests and its benchmark: Debian's Chromium driven by playwright-core
 * (never a downloaded browser), `executa inspect` started as a user starts it, and real
 * scaffolded plugins.
 */
import { spawn, spawnSync, type ChildProcessWithoutNullStreams } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { request, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { chromium, type BrowserContext } from "playwright-core";
import { makeSpec, scaffold } from "../../src/scaffold/index.js";

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
export const EXECUTA = join(REPO_ROOT, "bin", "executa.js");
export const CHROMIUM = "/usr/bin/chromium";

/** Why the browser tests cannot run here, or undefined when they can. */
export const noChromium = existsSync(CHROMIUM)
  ? undefined
  : `${CHROMIUM} is missing (apt-get install chromium; .ci/run installs it)`;

/** Without the background-networking flags Chromium floods this machine's closed network. */
const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with a fresh profile in the temp folder (removed on close). */
export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(join(tmpdir(), "executa-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 860 },
    acceptDownloads: true,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A project as `create-executa --no-install --no-git` makes it, in a fresh temp folder. */
export async function scaffoldPlugin(
  lang: "ts" | "python" | "go",
  name: string,
): Promise<{ dir: string; root: string }> {
  const root = mkdtempSync(join(tmpdir(), `executa-inspect-${lang}-`));
  const dir = join(root, name);
  await scaffold({ targetDir: dir, spec: makeSpec({ lang, name }), install: false, git: false, quiet: true });
  return { dir, root };
}

export function executa(args: string[], cwd: string) {
  const r = spawnSync(process.execPath, [EXECUTA, ...args], {
    cwd,
    encoding: "utf8",
    env: { ...process.env, NO_COLOR: "1" },
    timeout: 300_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export interface Running {
  /** The link `executa inspect` printed (its code is spent: the helper bought `token` with it). */
  url: string;
  port: number;
  /** The session token, from the cookie the printed link's code bought. */
  token: string;
  /** A fresh one-time link, as a visitor without the cookie gets one printed in the terminal. */
  freshLink(): Promise<string>;
  child: ChildProcessWithoutNullStreams;
  stderr(): string;
  /** Ctrl-C, as a terminal sends it; resolves with the exit code. */
  interrupt(): Promise<number | null>;
}

/** `executa inspect --json [args]` in dir, once it printed where it serves. */
export async function startInspect(dir: string, args: string[] = [], env: NodeJS.ProcessEnv = {}): Promise<Running> {
  const child = spawn(process.execPath, [EXECUTA, "inspect", "--json", ...args], {
    cwd: dir,
    env: { ...process.env, NO_COLOR: "1", ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const line = await Promise.race([
    (async () => {
      while (!stdout.includes("\n")) await new Promise((r) => setTimeout(r, 20));
      return stdout.split("\n")[0]!;
    })(),
    exited.then((code) => {
      throw new Error(`executa inspect exited (${code}) before serving:\n${stderr}\n${stdout}`);
    }),
  ]);
  const ready = JSON.parse(line) as { status: string; url: string; port: number };
  if (ready.status !== "ok") throw new Error(`executa inspect: ${line}\n${stderr}`);
  const link = new URL(ready.url);
  /** A request to the server, whose failure says what executa inspect printed. */
  const ask = (path: string) =>
    rawRequest(ready.port, { path }).catch((error: Error) => {
      const state = child.exitCode === null ? "is running" : `exited (${child.exitCode})`;
      throw new Error(`${error.message}: executa inspect ${state}; its stderr:\n${stderr}`, { cause: error });
    });
  const page = await ask(`${link.pathname}${link.search}`);
  const token = /^executa-inspect-\d+=([^;]+)/.exec(page.headers["set-cookie"]?.[0] ?? "")?.[1];
  if (page.status !== 200 || !token)
    throw new Error(`the printed link did not buy a cookie: ${page.status} ${JSON.stringify(page.headers)}`);
  return {
    url: ready.url,
    port: ready.port,
    token,
    freshLink: async () => {
      const seen = stderr.length;
      for (let i = 0; i < 100; i++) {
        if (i % 25 === 0) await ask("/");
        const fresh = /open this fresh one[^:]*: (http:\S+)/.exec(stderr.slice(seen))?.[1];
        if (fresh) return fresh;
        await new Promise((r) => setTimeout(r, 50));
      }
      throw new Error(`no fresh link was printed:\n${stderr}`);
    },
    child,
    stderr: () => stderr,
    interrupt: async () => {
      if (child.exitCode === null) child.kill("SIGINT");
      return exited;
    },
  };
}

/**
 * One raw HTTP request (headers exactly as given, so Host and Origin can lie), on a connection of
 * its own: a kept-alive one could be reused just as the server closes it for idling (5 s), which a
 * loaded machine turned into a read ECONNRESET.
 */
export function rawRequest(
  port: number,
  options: { method?: string; path: string; headers?: Record<string, string>; body?: string },
): Promise<{ status: number; body: string; headers: IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        method: options.method ?? "GET",
        path: options.path,
        headers: options.headers,
        setHost: !options.headers?.Host,
        agent: false,
      },
      (res) => {
        let body = "";
        res.setEncoding("utf8").on("data", (d: string) => (body += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
      },
    );
    req.on("error", reject);
    req.end(options.body);
  });
}
