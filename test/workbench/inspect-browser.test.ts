/**
 * `executa inspect` in a real browser (Debian's Chromium through playwright-core) on a scaffolded
 * TypeScript plugin with three more tools (an object parameter, a `_display` result, a long
 * text: inline at 700 KB, RESULT_TOO_LARGE over 4 MiB): the forms, an invoke, sampling by hand
 * nested in the trace, a credential, export and replay, the simulated host, --watch,
 * conformance, and the page refusing requests without the token or from another origin. Screenshots go to a printed folder.
 */
import assert from "node:assert/strict";
import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import {
  answerSamplingByHand,
  checkTextStatsForm,
  exportAndReplay,
  invokeAndWait,
  invokeTextStats,
  openPage,
  SECRET,
  selectTool,
  shoot,
  signWithCredential,
  tab,
} from "./inspect-flow.js";
import { executa, launchBrowser, rawRequest, scaffoldPlugin, startInspect } from "./inspect-helpers.js";
import { requires } from "../support/requires.js";

const EXTRA_TOOLS = `
/**
 * Merge settings over the defaults.
 * @tool
 */
export function merge_settings({
  settings,
}: {
  /** The settings to merge, a JSON object. */
  settings: Record<string, unknown>;
}): Record<string, unknown> {
  return { theme: "light", ...settings };
}

/**
 * Show a greeting card in the chat.
 * @tool
 * @param name - Who to greet.
 */
export function greeting_card(name: string): Record<string, unknown> {
  return { greeted: name, _display: [{ type: "markdown", text: \`# Hello, \${name}!\` }] };
}

/**
 * Return a long text.
 * @tool
 * @param size - How many characters.
 */
export function long_text(size: number): { text: string } {
  return { text: "x".repeat(size) };
}
`;

const WATCHED_TOOL = `
/**
 * Shout a word.
 * @tool
 * @param word - The word.
 */
export function shout(word: string): string {
  return word.toUpperCase() + "!";
}
`;

test("executa inspect in Chromium: a TypeScript plugin from form to fixture", {
  ...requires("chromium"),
  timeout: 15 * 60_000,
}, async (t) => {
  const shots = mkdtempSync(join(tmpdir(), "executa-inspect-screenshots-ts-"));
  t.diagnostic(`screenshots: ${shots}`);
  console.log(`# screenshots of the main views: ${shots}`);
  const { dir, root } = await scaffoldPlugin("ts", "inspect-ts");
  appendFileSync(join(dir, "src", "tools.ts"), EXTRA_TOOLS);
  assert.equal(executa(["manifest"], dir).code, 0);
  const browser = await launchBrowser();
  const running = await startInspect(dir, ["--watch"]);
  try {
    const page = await browser.context.newPage();
    await openPage(page, running);
    await shoot(page, shots, "tools");
    await checkTextStatsForm(page);

    // The object parameter: a JSON editor that says what does not parse.
    await selectTool(page, "merge_settings");
    const settings = page.locator('form[data-tool="merge_settings"] .field[data-param="settings"]');
    assert.equal(await settings.getAttribute("data-type"), "object");
    await settings.locator("textarea[data-kind=json]").fill('{"theme": ');
    assert.match(await settings.locator(".problems").innerText(), /not JSON/);
    await settings.locator("textarea[data-kind=json]").fill("[1]");
    assert.match(await settings.locator(".problems").innerText(), /must be a JSON object/);
    await settings.locator("textarea[data-kind=json]").fill('{"theme": "dark", "size": 3}');
    const merged = await invokeAndWait(page, "merge_settings");
    assert.match(await merged.locator('[data-part="data"]').innerText(), /theme: "dark"/);

    await invokeTextStats(page, shots);

    // _display shown apart, as the chat UI gets it; the model's data without it.
    await selectTool(page, "greeting_card");
    await page.fill('form[data-tool="greeting_card"] .field[data-param="name"] textarea', "Ada");
    const card = await invokeAndWait(page, "greeting_card");
    assert.match(await card.locator('[data-part="display"]').innerText(), /# Hello, Ada!/);
    assert.doesNotMatch(await card.locator('[data-part="data"]').innerText(), /_display/);
    assert.match(await card.locator('[data-part="data"]').innerText(), /greeted: "Ada"/);
    await shoot(page, shots, "tools-display-result");

    // A 700 KB answer comes inline, as the platform reads it; one over 4 MiB is the runtime's RESULT_TOO_LARGE error.
    await selectTool(page, "long_text");
    await page.fill('form[data-tool="long_text"] .field[data-param="size"] input', "700000");
    const long = await invokeAndWait(page, "long_text");
    assert.equal(await long.getAttribute("data-status"), "success");
    assert.equal(await long.locator('[data-part="file"]').count(), 0, "no file transport");
    await page.fill('form[data-tool="long_text"] .field[data-param="size"] input', "5000000");
    const tooLong = await invokeAndWait(page, "long_text");
    assert.match(
      await tooLong.locator('[data-part="error"]').innerText(),
      /result too large: \d+ bytes is over the platform's 4 MiB result limit/,
    );

    await answerSamplingByHand(page, shots);
    await signWithCredential(page, shots);

    // The simulated user refuses sampling: the tool's own message says so.
    await tab(page, "mock");
    await page.check('input[data-refuse="llm.sample"]');
    await page.waitForFunction(
      () => (document.querySelector('input[data-refuse="llm.sample"]') as HTMLInputElement).checked,
    );
    await selectTool(page, "summarize");
    await page.fill('form[data-tool="summarize"] .field[data-param="text"] textarea', "Refused, this time.");
    const refused = await invokeAndWait(page, "summarize");
    assert.equal(await refused.getAttribute("data-status"), "tool-error");
    assert.match(await refused.innerText(), /refused the sampling request.*NOT_GRANTED/s);
    await tab(page, "mock");
    await page.uncheck('input[data-refuse="llm.sample"]');

    // A v1 host offers 1.1 in its initialize: the plugin restarts, reports 1.1, and its sampling helper says why it cannot.
    await page.selectOption('select[data-role="protocol"]', "1.1");
    await page.waitForFunction(
      () =>
        /1\.1/.test(document.querySelector('[data-role="protocol"]')?.textContent ?? "") &&
        document.body.dataset.plugin === "ready",
    );
    await selectTool(page, "summarize");
    await page.fill('form[data-tool="summarize"] .field[data-param="text"] textarea', "A v1 host.");
    assert.match(await (await invokeAndWait(page, "summarize")).innerText(), /protocol 2\.0/);
    await tab(page, "mock");
    await page.selectOption('select[data-role="protocol"]', "2.0");
    await page.waitForFunction(
      () =>
        /protocol 2\.0/.test(document.querySelector('[data-role="protocol"]')?.textContent ?? "") &&
        document.body.dataset.plugin === "ready",
    );

    await tab(page, "plugin");
    assert.match(await page.locator('[data-view="plugin"]').innerText(), /SIGNING_SECRET[\s\S]*llm\.sample/);
    await shoot(page, shots, "plugin");

    await exportAndReplay(page, dir, shots);
    const [traceDownload] = await Promise.all([
      page.waitForEvent("download"),
      page.click('[data-action="export-trace"]'),
    ]);
    const traceFile = join(root, "trace.json");
    await traceDownload.saveAs(traceFile);
    const traceText = readFileSync(traceFile, "utf8");
    const exported = JSON.parse(traceText) as {
      frames: { method?: string }[];
      reverse_requests: { method: string; answeredBy: string }[];
    };
    assert.ok(exported.frames.filter((f) => f.method === "invoke").length >= 10, "the trace export holds the invokes");
    assert.ok(
      exported.reverse_requests.some((r) => r.method === "sampling/createMessage" && r.answeredBy === "manual"),
    );
    assert.ok(!traceText.includes(SECRET), "the trace export never carries the secret");

    // The mock host's storage: a key and a file set from the page, shown, downloaded, deleted.
    await tab(page, "mock");
    const storage = page.locator("section.storage");
    await storage.locator('input[aria-label="key"]').fill("greeting");
    await storage.locator('textarea[aria-label="value (JSON)"]').fill('{"text": "hello"}');
    await storage.locator("button", { hasText: "Set key" }).click();
    const keyRow = storage.locator('tr[data-key="greeting"][data-scope="app"]');
    await keyRow.waitFor();
    assert.match(await keyRow.innerText(), /\{"text":"hello"\}/);
    await storage.locator('input[aria-label="file path"]').fill("notes/today.txt");
    await storage.locator('textarea[aria-label="file text"]').fill("buy milk");
    await storage.locator("button", { hasText: "Write file" }).click();
    const fileRow = storage.locator('tr[data-path="notes/today.txt"]');
    await fileRow.waitFor();
    const [fileDownload] = await Promise.all([
      page.waitForEvent("download"),
      fileRow.locator("button", { hasText: "download" }).click(),
    ]);
    await fileDownload.saveAs(join(root, "today.txt"));
    assert.equal(readFileSync(join(root, "today.txt"), "utf8"), "buy milk");
    await shoot(page, shots, "mock-host-storage");
    await keyRow.locator("button", { hasText: "delete" }).click();
    await keyRow.waitFor({ state: "detached" });

    // --watch: a banner while the plugin rebuilds, then the new tool is there.
    await page.evaluate(() => {
      const w = window as unknown as { sawBanner: boolean };
      w.sawBanner = false;
      new MutationObserver(() => {
        if (document.querySelector(".banner.rebuilding:not([hidden])")) w.sawBanner = true;
      }).observe(document.body, { subtree: true, attributes: true, childList: true });
    });
    appendFileSync(join(dir, "src", "tools.ts"), WATCHED_TOOL);
    await tab(page, "tools");
    await page.waitForSelector('.tool-list [data-tool="shout"]', { timeout: 120_000 });
    assert.equal(
      await page.evaluate(() => (window as unknown as { sawBanner: boolean }).sawBanner),
      true,
      "the rebuild banner was shown",
    );

    await tab(page, "trace");
    await shoot(page, shots, "trace");
    await tab(page, "conformance");
    await page.click('[data-action="conformance"]');
    const summary = page.locator('[data-role="summary"]');
    await summary.waitFor({ timeout: 300_000 });
    assert.match(await summary.innerText(), /^passed/, await page.locator('[data-view="conformance"]').innerText());
    await shoot(page, shots, "conformance");

    // A reload keeps the page (the cookie), without the spent code.
    await page.reload();
    await page.waitForSelector("body[data-ready=true]");
    // Refused: the page without the cookie (a fresh link appears in the terminal), and a request from another origin (a real cross-site page).
    await browser.context.clearCookies();
    const noToken = await browser.context.newPage();
    const response = await noToken.goto(`http://127.0.0.1:${running.port}/`);
    assert.equal(response?.status(), 403);
    assert.match(await noToken.innerText("body"), /fresh link is printed in the terminal/);
    const evil = createServer((_req, res) => res.end("<!doctype html><title>elsewhere</title>"));
    await new Promise<void>((r) => evil.listen(0, "127.0.0.1", r));
    try {
      const sessionsBefore = (
        JSON.parse(
          (await rawRequest(running.port, { path: "/api/state", headers: { "X-Executa-Token": running.token } })).body,
        ) as { plugin: { session: number } }
      ).plugin.session;
      await noToken.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`);
      const attempts = await noToken.evaluate(
        async ({ port, token }) => {
          const tries: string[] = [];
          // A "simple" cross-origin POST needs no preflight: the server itself must refuse it.
          await fetch(`http://127.0.0.1:${port}/api/restart?token=${token}`, {
            method: "POST",
            mode: "no-cors",
            body: "{}",
          }).then(
            () => tries.push("sent"),
            () => tries.push("blocked"),
          );
          await fetch(`http://127.0.0.1:${port}/api/state?token=${token}`).then(
            (r) => tries.push(`read ${r.status}`),
            () => tries.push("unreadable"),
          );
          return tries;
        },
        { port: running.port, token: running.token },
      );
      assert.equal(attempts[1], "unreadable", `a foreign page cannot read the state: ${attempts.join(", ")}`);
      const after = JSON.parse(
        (await rawRequest(running.port, { path: "/api/state", headers: { "X-Executa-Token": running.token } })).body,
      ) as { plugin: { session: number } };
      assert.equal(after.plugin.session, sessionsBefore, "the cross-site POST did not restart the plugin");
      const foreign = await rawRequest(running.port, {
        method: "POST",
        path: `/api/restart?token=${running.token}`,
        headers: {
          Origin: `http://localhost:${(evil.address() as AddressInfo).port}`,
          "Content-Type": "application/json",
        },
        body: "{}",
      });
      assert.equal(foreign.status, 403);
      assert.match(foreign.body, /origin/);
    } finally {
      evil.close();
    }
    await noToken.close();
    await page.close();
  } finally {
    const code = await running.interrupt();
    await browser.close();
    assert.equal(code, 0, `Ctrl-C stops executa inspect cleanly\n${running.stderr()}`);
    assert.match(running.stderr(), /interrupted: stopping the plugin and the server/);
    rmSync(root, { recursive: true, force: true });
  }
  assert.ok(existsSync(join(shots, "trace-nested-sampling.png")));
});
