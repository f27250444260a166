/**
 * The precomputed fallback for a missing toolchain can never go stale silently: its template hashes
 * are the current templates', and its data equals a fresh extraction of a freshly scaffolded
 * template (with other names than the ones it was computed with).
 */
import assert from "node:assert/strict";
import { appendFileSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { PACKAGE_ROOT, TEMPLATES_DIR } from "../../src/common/package-info.js";
import { sha256 } from "../../src/manifest/fallback/match.js";
import { PRECOMPUTED, PRECOMPUTED_FILE } from "../../src/manifest/fallback/precomputed.js";
import { generateManifest } from "../../src/manifest/index.js";
import { requires } from "../support/requires.js";
import {
  computeAll,
  FALLBACK_LANGUAGES,
  freshExtraction,
  renderPrecomputed,
  scaffoldTemplate,
  TEMPLATE_NAMES,
  templateExists,
} from "./fallback-data.js";

const REGENERATE = `run \`npm run data:fallback\` and commit ${PRECOMPUTED_FILE}`;
const TOOLCHAIN = { python: "python3", go: "go" } as const;
const MISSING = { python: "/nonexistent/python3", go: "/nonexistent/go" };
const TEMPLATE_TOOLS = JSON.parse(
  readFileSync(join(TEMPLATES_DIR, "..", "test", "fixtures", "template-tools.json"), "utf8"),
) as unknown;

for (const lang of FALLBACK_LANGUAGES)
  for (const variant of TEMPLATE_NAMES) {
    test(`${lang} ${variant}: precomputed data exists for the template and its hashes are current`, {
      skip: !templateExists(lang) && `templates/${lang} is empty`,
    }, () => {
      const entry = PRECOMPUTED.find((e) => e.language === lang && e.variant === variant);
      assert.ok(entry, `no precomputed data for ${lang} ${variant}; ${REGENERATE}`);
      for (const file of entry.files) {
        assert.equal(
          sha256(readFileSync(join(TEMPLATES_DIR, lang, file.template))),
          file.sha256,
          `templates/${lang}/${file.template} changed; ${REGENERATE}`,
        );
      }
      if (variant === "examples")
        assert.deepEqual(
          entry.extraction.tools,
          TEMPLATE_TOOLS,
          "the template's tools equal test/fixtures/template-tools.json",
        );
    });

    test(
      `${lang} ${variant}: with the toolchain missing, a fresh scaffold gets exactly what a fresh extraction gives`,
      templateExists(lang) ? requires(TOOLCHAIN[lang]) : { skip: `templates/${lang} is empty` },
      async () => {
        const { dir } = await scaffoldTemplate(lang, "other-name", "github.com/acme/other-name", variant);
        const fresh = await freshExtraction(dir);
        const withToolchain = await generateManifest(dir);
        const without = await generateManifest(dir, { toolchain: MISSING });
        assert.match(without.via, /precomputed/);
        assert.equal(withToolchain.via, lang);
        assert.deepEqual(
          without.outputs,
          withToolchain.outputs,
          "manifest.json and the bindings file are byte-identical",
        );
        assert.deepEqual(without.manifest, withToolchain.manifest);
        assert.deepEqual(without.diagnostics, withToolchain.diagnostics);
        if (variant === "examples") assert.deepEqual(fresh.tools, TEMPLATE_TOOLS);
      },
    );

    test(`${lang} ${variant}: a changed tool source is not recognised, and the missing toolchain is an error`, {
      skip: !templateExists(lang) && `templates/${lang} is empty`,
    }, async () => {
      const { dir, spec } = await scaffoldTemplate(lang, "changed-name", undefined, variant);
      const file = lang === "go" ? join(dir, "tools.go") : join(dir, spec.pyModule, "tools.py");
      appendFileSync(file, "\n// changed\n".replace("//", lang === "go" ? "//" : "#"));
      await assert.rejects(
        generateManifest(dir, { toolchain: MISSING }),
        /was not found, so the (Python|Go) tools cannot be read/,
      );
    });
  }

test(`${PRECOMPUTED_FILE} is exactly what \`npm run data:fallback\` writes now`, {
  ...requires("python3", "go"),
  timeout: 300_000,
}, async () => {
  const committed = readFileSync(join(PACKAGE_ROOT, PRECOMPUTED_FILE), "utf8");
  assert.equal(committed, renderPrecomputed(await computeAll()), `${PRECOMPUTED_FILE} is stale; ${REGENERATE}`);
});
