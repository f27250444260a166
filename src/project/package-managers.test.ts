import assert from "node:assert/strict";
import { test } from "node:test";
import {
  createCommand,
  dlxBin,
  execBin,
  frozenInstallCommand,
  globalInstall,
  packageManagerField,
  packageManagerFromUserAgent,
  parsePackageManagerName,
  resolvePackageManager,
  runScript,
  type PackageManager,
} from "./package-managers.js";

const npm: PackageManager = { name: "npm" };
const pnpm: PackageManager = { name: "pnpm", version: "10.34.9" };
const berry: PackageManager = { name: "yarn", version: "4.18.1" };
const classic: PackageManager = { name: "yarn", version: "1.22.22" };
const bun: PackageManager = { name: "bun", version: "1.4.5" };

test("the user agent each package manager sets names it and its version", () => {
  assert.deepEqual(packageManagerFromUserAgent("npm/11.19.1 node/v20.20.2 linux x64 workspaces/false"), {
    name: "npm",
    version: "11.19.1",
  });
  assert.deepEqual(packageManagerFromUserAgent("pnpm/10.34.9 npm/? node/v20.20.2 linux x64"), pnpm);
  assert.deepEqual(packageManagerFromUserAgent("yarn/4.18.1 npm/? node/v20.20.2 linux x64"), berry);
  assert.deepEqual(packageManagerFromUserAgent("yarn/1.22.22 npm/? node/v20.20.2 linux x64"), classic);
  assert.deepEqual(packageManagerFromUserAgent("bun/1.4.5 npm/? node/v24.3.0 linux x64"), bun);
  assert.deepEqual(packageManagerFromUserAgent("yarn/latest"), { name: "yarn" });
  for (const other of [undefined, "", "cnpm/9.0.0 node/v20", "Mozilla/5.0"])
    assert.equal(packageManagerFromUserAgent(other), undefined);
});

test("--package-manager wins over the user agent, which wins over npm; an unknown name lists the valid ones", async () => {
  assert.deepEqual(await resolvePackageManager(undefined, "pnpm/10.34.9 npm/? node/v20.20.2 linux x64"), pnpm);
  assert.deepEqual(await resolvePackageManager(undefined, ""), npm); // no user agent (undefined would read this process's)
  assert.deepEqual(await resolvePackageManager("PNPM", "pnpm/10.34.9 npm/? node/v20.20.2 linux x64"), pnpm);
  assert.equal((await resolvePackageManager("yarn", "pnpm/10.34.9 npm/? node/v20.20.2 linux x64")).name, "yarn");
  assert.throws(() => parsePackageManagerName("deno"), /unknown package manager 'deno'[\s\S]*/);
  await assert.rejects(resolvePackageManager("cargo", undefined), (e: Error & { hint?: string }) =>
    /npm, pnpm, yarn, bun/.test(e.hint ?? ""),
  );
});

test("each package manager's command lines", () => {
  assert.deepEqual(
    [npm, pnpm, berry, bun].map((pm) => runScript(pm, "test")),
    ["npm test", "pnpm test", "yarn test", "bun run test"],
  );
  assert.deepEqual(
    [npm, pnpm, berry, bun].map((pm) => runScript(pm, "compile")),
    ["npm run compile", "pnpm run compile", "yarn compile", "bun run compile"],
  );
  assert.deepEqual(
    [npm, pnpm, berry, bun].map((pm) => execBin(pm, "executa")),
    ["npx executa", "pnpm exec executa", "yarn executa", "bunx executa"],
  );
  assert.deepEqual(
    [npm, pnpm, berry, classic, bun].map((pm) => dlxBin(pm, "create-executa@^1.0.0", "executa")),
    [
      "npx --yes --package='create-executa@^1.0.0' executa",
      "pnpm --package='create-executa@^1.0.0' dlx executa",
      "yarn dlx --package 'create-executa@^1.0.0' executa",
      "npx --yes --package='create-executa@^1.0.0' executa",
      "bunx --package 'create-executa@^1.0.0' executa",
    ],
  );
  assert.deepEqual(
    [npm, pnpm, berry, classic, bun].map((pm) => globalInstall(pm, "create-executa")),
    [
      "npm install -g create-executa",
      "pnpm add -g create-executa",
      undefined,
      "yarn global add create-executa",
      "bun add -g create-executa",
    ],
  );
  assert.deepEqual([npm, pnpm, berry, classic, bun].map(frozenInstallCommand), [
    "npm ci",
    "pnpm install --frozen-lockfile",
    "yarn install --immutable",
    "yarn install --frozen-lockfile",
    "bun install --frozen-lockfile",
  ]);
  assert.deepEqual([npm, pnpm, berry, { name: "pnpm" } as PackageManager, bun].map(packageManagerField), [
    undefined,
    "pnpm@10.34.9",
    "yarn@4.18.1",
    undefined,
    undefined,
  ]);
  assert.equal(
    createCommand(npm, "my-plugin", "--lang go --yes"),
    "npm create executa@latest my-plugin -- --lang go --yes",
  );
  assert.equal(createCommand(pnpm, "my-plugin", "--lang go --yes"), "pnpm create executa my-plugin --lang go --yes");
});
