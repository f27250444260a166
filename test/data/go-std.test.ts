/** data/generated/go-std-packages.json is what `npm run data:go-std` writes with the Go installed here. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { test } from "node:test";
import { PACKAGE_ROOT } from "../../src/common/package-info.js";
import { requires } from "../support/requires.js";

const FILE = "data/generated/go-std-packages.json";

test(
  `${FILE} lists Go's standard library (exactly, with the Go version it was made with)`,
  requires("go"),
  async () => {
    const { goStdPackages, goVersion, renderGoStd } = (await import(
      join(PACKAGE_ROOT, "scripts", "go-std-packages.mjs")
    )) as {
      goStdPackages(): string[];
      goVersion(): string;
      renderGoStd(go: string, packages: string[]): string;
    };
    const committed = JSON.parse(readFileSync(join(PACKAGE_ROOT, FILE), "utf8")) as { go: string; packages: string[] };
    const here = goStdPackages();
    assert.ok(committed.packages.includes("os") && committed.packages.includes("net/http"));
    if (goVersion() === committed.go) {
      assert.equal(
        readFileSync(join(PACKAGE_ROOT, FILE), "utf8"),
        renderGoStd(committed.go, here),
        `${FILE} is stale: run npm run data:go-std`,
      );
    } else {
      // Another Go: the standard library changes slowly, so the lists still agree on nearly every package.
      const differ = [
        ...here.filter((p) => !committed.packages.includes(p)),
        ...committed.packages.filter((p) => !here.includes(p)),
      ];
      assert.ok(
        differ.length <= here.length / 20,
        `${FILE} (${committed.go}) and this Go (${goVersion()}) differ in ${differ.join(", ")}: run npm run data:go-std`,
      );
    }
  },
);
