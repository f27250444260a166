import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";
import { flagTable, withFlagTables } from "../../src/cli/flag-table.js";
import { commandsOf } from "../../src/cli/program.js";
import { checkTable, withCheckTable } from "../../src/conform/check-table.js";
import { CHECKS } from "../../src/conform/index.js";

const README = new URL("../../../README.md", import.meta.url);
const commands = commandsOf("executa");

test("the README's flag tables are the commands' declarations (npm run docs:readme rewrites them)", () => {
  const readme = readFileSync(README, "utf8");
  assert.equal(withFlagTables(readme, commands), readme);
});

test("every command has its flag table in the README, and every declared option is in it", () => {
  const readme = readFileSync(README, "utf8");
  for (const command of commands) {
    const verb = String(command.command).split(" ")[0]!;
    assert.ok(readme.includes(`<!-- flags: ${verb} -->`), `the README has no flag table for ${verb}`);
    const table = flagTable(command);
    for (const name of Object.keys(command.options))
      assert.match(table, new RegExp(`\`--(no-)?${name}[ ,\`]`), `${verb} --${name}`);
  }
});

test("a flag declared in code changes the README table it renders into", () => {
  const build = commands.find((c) => String(c.command).startsWith("build "))!;
  const withFlag = {
    ...build,
    options: { ...build.options, "new-flag": { type: "string" as const, describe: "A new flag", value: "<x>" } },
  };
  assert.match(flagTable(withFlag), /\| `--new-flag <x>` \| A new flag \|/);
  assert.throws(
    () => withFlagTables("<!-- flags: nope -->\n<!-- /flags -->", commands),
    /'nope', which is not a command/,
  );
});

test("the README's check table is the suite (npm run docs:readme rewrites it), every check of src/conform/checks in it", () => {
  const readme = readFileSync(README, "utf8");
  assert.equal(withCheckTable(readme), readme);
  const table = checkTable();
  for (const check of CHECKS)
    assert.ok(table.includes(`| \`${check.id}\` | ${check.description.replace(/\|/g, "\\|")} |`), check.id);
  assert.match(table, /\| `fuzz` \|/);
  assert.match(table, /\| `describe\.manifest-text` \|/);
});
