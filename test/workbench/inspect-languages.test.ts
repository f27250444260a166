/**
 * `executa inspect` in Chromium on a scaffolded Python and a scaffolded Go plugin: the same page
 * works for every language (the generated fields, an invoke through the form, sampling by hand
 * nested under its invoke, a credential, export and replay green). Screenshots go to a printed folder.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { test } from "node:test";
import assert from "node:assert/strict";
import {
  answerSamplingByHand,
  checkTextStatsForm,
  exportAndReplay,
  invokeTextStats,
  openPage,
  shoot,
  signWithCredential,
} from "./inspect-flow.js";
import { launchBrowser, scaffoldPlugin, startInspect } from "./inspect-helpers.js";
import { requires } from "../support/requires.js";

for (const lang of ["python", "go"] as const) {
  const tool = lang === "python" ? "python3" : "go";
  test(`executa inspect in Chromium: a ${lang} plugin from form to fixture`, {
    ...requires("chromium", tool),
    timeout: 10 * 60_000,
  }, async (t) => {
    const shots = mkdtempSync(join(tmpdir(), `executa-inspect-screenshots-${lang}-`));
    t.diagnostic(`screenshots: ${shots}`);
    console.log(`# screenshots of the main views: ${shots}`);
    const { dir, root } = await scaffoldPlugin(lang, `inspect-${lang}`);
    const browser = await launchBrowser();
    const running = await startInspect(dir);
    try {
      const page = await browser.context.newPage();
      await openPage(page, running);
      await shoot(page, shots, "tools");
      await checkTextStatsForm(page);
      await invokeTextStats(page, shots);
      await answerSamplingByHand(page, shots, "A cat in a hat.");
      await signWithCredential(page, shots);
      await exportAndReplay(page, dir, shots);
      await page.close();
    } finally {
      const code = await running.interrupt();
      await browser.close();
      rmSync(root, { recursive: true, force: true });
      assert.equal(code, 0, running.stderr());
    }
  });
}
