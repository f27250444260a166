/**
 * What an author does in the inspect page, step by step in a real browser, on any scaffolded
 * plugin (the three languages serve the same tools): each step asserts what the page shows.
 */
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Locator, Page } from "playwright-core";
import { executa, type Running } from "./inspect-helpers.js";

export const SECRET = "s3cret-signing-key-for-the-test";

/** Screenshots of the main views, one folder per test run (printed by the test, kept for a reviewer). */
export async function shoot(page: Page, folder: string, name: string): Promise<void> {
  mkdirSync(folder, { recursive: true });
  await page.screenshot({ path: join(folder, `${name}.png`) });
}

export async function openPage(page: Page, running: Running): Promise<void> {
  const link = await running.freshLink();
  await page.goto(link);
  await page.waitForSelector("body[data-ready=true]");
  assert.equal(new URL(page.url()).search, "", "the spent code left the address bar");
  await page.waitForSelector("body[data-plugin=ready]", { timeout: 120_000 });
  await page.waitForSelector('form[data-tool="text_stats"]');
}

export async function tab(page: Page, id: string): Promise<void> {
  await page.click(`nav.tabs [data-tab="${id}"]`);
  await page.waitForSelector(`[data-view="${id}"]:not([hidden])`);
}

export async function selectTool(page: Page, tool: string): Promise<void> {
  await tab(page, "tools");
  await page.click(`.tool-list [data-tool="${tool}"]`);
  await page.waitForSelector(`form[data-tool="${tool}"]`);
}

/** The newest result card of a tool, once there is one more than `before`. */
/** The finished result cards of `tool` (a running invoke has its own card until it answers). */
const finished = (tool: string) => `article.result[data-tool="${tool}"]:not([data-status="running"])`;

/** Clicks the tool's Invoke; the function it returns waits for that invoke's result card. */
export async function startInvoke(page: Page, tool: string): Promise<() => Promise<Locator>> {
  const before = await page.locator(finished(tool)).count();
  await page.click(`form[data-tool="${tool}"] [data-action="invoke"]`);
  return async () => {
    await page.waitForFunction(
      ([selector, n]) => document.querySelectorAll(selector as string).length > (n as number),
      [finished(tool), before] as const,
    );
    return page.locator(finished(tool)).first();
  };
}

/** Clicks the tool's Invoke and returns the result card of that invoke once it has answered. */
export const invokeAndWait = async (page: Page, tool: string): Promise<Locator> => (await startInvoke(page, tool))();

/** One generated field per parameter type of text_stats, and the runtime's check before sending. */
export async function checkTextStatsForm(page: Page): Promise<void> {
  await selectTool(page, "text_stats");
  const form = page.locator('form[data-tool="text_stats"]');
  const field = (name: string) => form.locator(`.field[data-param="${name}"]`);
  assert.equal(await field("text").getAttribute("data-type"), "string");
  assert.equal(await field("text").locator("textarea[data-kind=string]").count(), 1);
  assert.equal(await field("text").locator(".req").count(), 1, "text is marked required");
  assert.equal(
    await field("top").locator("input[type=number][step='1']").inputValue(),
    "3",
    "integer with its default",
  );
  assert.equal(await field("top").locator(".req").count(), 0);
  assert.deepEqual(await field("letter_case").locator("select[data-kind=enum] option").allTextContents(), [
    "lower",
    "upper",
    "preserve",
  ]);
  assert.equal(
    await field("words_per_minute").locator("input[type=number][step=any]").inputValue(),
    "238",
    "number with its default",
  );
  assert.equal(await field("unique").locator("input[type=checkbox][data-kind=boolean]").isChecked(), false);
  assert.equal(await field("ignore").getAttribute("data-type"), "array<string>");
  await field("ignore").locator("button.add").click();
  assert.equal(
    await field("ignore").locator(".item textarea[data-kind=string]").count(),
    1,
    "an array item of the element type",
  );
  await field("ignore").locator(".item button").click();

  // What the runtime would answer -32602 for shows before sending, and Invoke waits for a fix.
  await field("text").locator("textarea").fill("x");
  await field("top").locator("input").fill("1.5");
  await page.waitForSelector('form[data-tool="text_stats"] .field[data-param="top"].invalid');
  assert.match(await field("top").locator(".problems").innerText(), /expected integer, got number/);
  assert.equal(await form.locator('[data-action="invoke"]').isDisabled(), true);
  await field("top").locator("input").fill("2");
  assert.equal(await form.locator('[data-action="invoke"]').isDisabled(), false);

  // Raw JSON mode carries the same arguments and the same check.
  await form.locator('[data-action="raw"]').click();
  const raw = form.locator("textarea.raw-args");
  assert.deepEqual(JSON.parse(await raw.inputValue()), {
    text: "x",
    top: 2,
    letter_case: "lower",
    words_per_minute: 238,
    unique: false,
  });
  await raw.fill('{"top": "many", "colour": "red"}');
  assert.deepEqual(await form.locator(".problems.all li").allInnerTexts(), [
    "text: required",
    "top: expected integer, got string",
    "colour: unknown parameter",
  ]);
  await raw.fill('{"text": "x", "top": 2}');
  await form.locator(".modes button").first().click();
}

/** text_stats through the form; the result as the host sees it. */
export async function invokeTextStats(page: Page, folder: string): Promise<void> {
  await selectTool(page, "text_stats");
  const form = page.locator('form[data-tool="text_stats"]');
  await form.locator('.field[data-param="text"] textarea').fill("the cat and the hat and the bat");
  await form.locator('.field[data-param="top"] input').fill("2");
  await form.locator('.field[data-param="ignore"] button.add').click();
  await form.locator('.field[data-param="ignore"] .item textarea').fill("and");
  const card = await invokeAndWait(page, "text_stats");
  assert.equal(await card.getAttribute("data-status"), "success");
  const raw = JSON.parse((await card.locator("details.raw pre").textContent()) ?? "{}") as {
    result: { data: Record<string, unknown> };
  };
  assert.deepEqual(raw.result.data.top, [
    { word: "the", count: 3 },
    { word: "bat", count: 1 },
  ]);
  assert.equal(raw.result.data.words, 6);
  assert.match(await card.locator('[data-part="data"]').innerText(), /words: 6/);
  await card.scrollIntoViewIfNeeded();
  await shoot(page, folder, "tools-text_stats-result");
}

/** Sampling answered by hand: the request waits in the page, the answer reaches the tool, the trace nests it under its invoke. */
export async function answerSamplingByHand(page: Page, folder: string, answer = "Cats wear hats."): Promise<void> {
  await tab(page, "mock");
  await page.check('input[data-sampling="manual"]');
  await page.waitForFunction(
    () => (document.querySelector('input[data-sampling="manual"]') as HTMLInputElement).checked,
  );
  await shoot(page, folder, "mock-host");
  await selectTool(page, "summarize");
  const form = page.locator('form[data-tool="summarize"]');
  await form.locator('.field[data-param="text"] textarea').fill("The cat sat on the mat. The cat wore a hat.");
  const answered = await startInvoke(page, "summarize");
  const pending = page.locator("article.pending").first();
  await pending.waitFor();
  assert.match(await pending.locator("pre.prompt").innerText(), /The cat sat on the mat/);
  const invokeId = await pending.getAttribute("data-invoke");
  assert.ok(invokeId, "the pending request names its invoke");
  await shoot(page, folder, "sampling-by-hand-pending");
  await pending.locator('textarea[data-role="answer"]').fill(answer);
  await pending.locator('[data-action="answer"]').click();
  const card = await answered();
  assert.equal(await card.getAttribute("data-status"), "success", await card.innerText());
  assert.match(await card.locator('[data-part="data"]').innerText(), new RegExp(answer.replace(".", "\\.")));
  await page.waitForSelector("section.pending-panel", { state: "hidden" });

  await tab(page, "trace");
  await page.fill('.trace-toolbar input[type="search"]', invokeId!);
  const parent = page.locator(
    `.trace-list .row[data-method="invoke"][data-depth="0"][data-invoke="${invokeId}"][data-dir="send"]`,
  );
  await parent.waitFor();
  const nested = page.locator(`.trace-list .row[data-depth="1"][data-invoke="${invokeId}"]`);
  await page.waitForFunction(
    (id) => document.querySelectorAll(`.trace-list .row[data-depth="1"][data-invoke="${id}"]`).length >= 3,
    invokeId,
  );
  const methods = await nested.evaluateAll((rows) =>
    rows.map((r) => `${(r as HTMLElement).dataset.dir} ${(r as HTMLElement).dataset.method ?? ""}`),
  );
  assert.ok(
    methods.includes("recv sampling/createMessage"),
    `the sampling request is nested under its invoke: ${methods.join(", ")}`,
  );
  assert.ok(methods.includes("send sampling/createMessage"), `the host's answer is nested too: ${methods.join(", ")}`);
  assert.ok(methods.includes("recv invoke"), `and the invoke's own answer: ${methods.join(", ")}`);
  assert.match(
    await page
      .locator(`.trace-list .row[data-depth="1"][data-method="sampling/createMessage"][data-dir="recv"]`)
      .innerText(),
    /manual/,
    "marked as answered by hand",
  );
  await shoot(page, folder, "trace-nested-sampling");
  await page.fill('.trace-toolbar input[type="search"]', "");

  await tab(page, "mock");
  await page.check('input[data-sampling="canned"]');
  await page.waitForFunction(
    () => (document.querySelector('input[data-sampling="canned"]') as HTMLInputElement).checked,
  );
}

/** A credential entered once; sign_message uses it; the value shows nowhere in the page's storage or the trace. */
export async function signWithCredential(page: Page, folder: string): Promise<void> {
  await selectTool(page, "sign_message");
  const credential = page.locator('.credential[data-name="SIGNING_SECRET"]');
  await credential.locator("input").fill(SECRET);
  await credential.locator("button", { hasText: "Set" }).click();
  await page.waitForFunction(
    () => document.querySelector('.credential[data-name="SIGNING_SECRET"] .badge')?.textContent === "set",
  );
  assert.equal(
    await credential.locator("input").inputValue(),
    "",
    "the input is cleared once the value went to the server",
  );
  const form = page.locator('form[data-tool="sign_message"]');
  await form.locator('.field[data-param="message"] textarea').fill("hello");
  const card = await invokeAndWait(page, "sign_message");
  assert.equal(await card.getAttribute("data-status"), "success", await card.innerText());
  const raw = JSON.parse((await card.locator("details.raw pre").textContent()) ?? "{}") as {
    result: { data: { signature: string } };
  };
  assert.equal(raw.result.data.signature, createHmac("sha256", SECRET).update("hello", "utf8").digest("hex"));
  await shoot(page, folder, "tools-sign_message-credential");

  const stored = await page.evaluate(
    () => JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage }) + document.cookie,
  );
  assert.ok(!stored.includes(SECRET), "nothing of the secret in the page's storage");
  await tab(page, "trace");
  const traceText = await page.evaluate(async () => JSON.stringify(await (await fetch("/api/state")).json()));
  assert.ok(!traceText.includes(SECRET), "the trace never carries the secret");
  assert.match(traceText, /\[credential SIGNING_SECRET\]/, "the invoke's context shows where the secret went");
}

/** Export the fixture from the page, replay it green with `executa test --fixtures`, and import it back into the page. */
export async function exportAndReplay(page: Page, dir: string, folder: string): Promise<string> {
  await tab(page, "session");
  await page.click("text=Refresh the list");
  await page.waitForSelector("input[data-include]");
  const rows = page.locator(".session-view tbody tr[data-index]");
  const unchecked = await rows.evaluateAll((trs) =>
    trs.filter((tr) => !(tr.querySelector("input") as HTMLInputElement).checked).map((tr) => tr.textContent ?? ""),
  );
  assert.ok(
    unchecked.some((t) => /sign_message/.test(t) && /credentials/.test(t)),
    `the credential invoke is left out by default: ${unchecked.join(" | ")}`,
  );
  assert.ok(
    unchecked.some((t) => /summarize/.test(t) && /by hand/.test(t)),
    `the by-hand answer is left out by default: ${unchecked.join(" | ")}`,
  );
  await shoot(page, folder, "export");
  const [download] = await Promise.all([page.waitForEvent("download"), page.click('[data-action="export-fixture"]')]);
  const file = join(dir, "fixtures", "session.jsonl");
  mkdirSync(join(dir, "fixtures"), { recursive: true });
  await download.saveAs(file);
  const text = readFileSync(file, "utf8");
  assert.ok(!text.includes(SECRET), "the fixture never carries the secret");
  assert.match(text, /"method":"invoke"/);
  const replay = executa(["test", "--only", "fixtures", "--fixtures", file, "--json"], dir);
  const report = JSON.parse(replay.stdout) as {
    status: string;
    results: { id: string; status: string; message?: string }[];
  };
  assert.equal(report.status, "ok", replay.stdout);
  assert.ok(
    report.results.some((r) => r.id === "fixtures/session" && r.status === "pass"),
    replay.stdout,
  );

  await page.setInputFiles('.session-view input[type="file"]', file);
  await page.click('[data-action="replay"]');
  const summary = page.locator('[data-role="replay-summary"]');
  await summary.waitFor();
  const mismatches = await page.locator(".session-view tr.fail").allTextContents();
  assert.match(
    await summary.innerText(),
    /^(\d+) of \1 exchanges answered as recorded/,
    mismatches.join("\n").slice(0, 4000),
  );
  return file;
}
