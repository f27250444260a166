/**
 * A describe of the wrong types (objects where text goes, a map where a list goes) still gives a
 * working page in a real browser: the fields show as invalid, the Plugin view lists what is
 * wrong, and the tools that can be used are there.
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import { PLUGINS } from "../host/helpers.js";
import { launchBrowser, noChromium, startInspect } from "./inspect-helpers.js";

test("the page renders a describe with fields of the wrong type, marking them invalid", {
  skip: noChromium,
  timeout: 180_000,
}, async () => {
  const dir = mkdtempSync(join(tmpdir(), "executa-odd-describe-"));
  const running = await startInspect(dir, ["--", process.execPath, join(PLUGINS, "node", "odd-describe.mjs")]);
  const browser = await launchBrowser();
  try {
    const page = await browser.context.newPage();
    const failures: string[] = [];
    page.on("pageerror", (e) => failures.push(e.message));
    await page.goto(await running.freshLink());
    await page.waitForSelector("body[data-ready=true]");
    await page.waitForSelector('body[data-plugin=ready] form[data-tool="echo"]', { timeout: 60_000 });
    assert.match(await page.locator("header").innerText(), /invalid \(object\): \{"en":"Odd"\}/);
    assert.match(await page.locator('form[data-tool="echo"]').innerText(), /invalid \(object\): \{"text":"Echo"\}/);
    await page.click('nav.tabs [data-tab="plugin"]');
    const problems = await page.locator(".manifest-problems").innerText();
    for (const expected of [
      "display_name is an object, not text",
      "tools[1] is a string, not an object",
      "credentials is an object, not a list",
      "host_capabilities is a string, not a list",
    ])
      assert.ok(problems.includes(expected), problems);
    assert.deepEqual(failures, []);
  } finally {
    await browser.close();
    await running.interrupt();
    rmSync(dir, { recursive: true, force: true });
  }
});
