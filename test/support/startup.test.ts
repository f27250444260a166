import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join } from "node:path";
import { test } from "node:test";
import { requires } from "./requires.js";
import { deferCertificateLoading, passOverPythonShim } from "./startup.js";

const BUNDLE = "/etc/ssl/certs/ca-certificates.crt";

test("NODE_EXTRA_CA_CERTS naming OpenSSL's own file becomes --use-openssl-ca, after the user's NODE_OPTIONS", () => {
  const env: NodeJS.ProcessEnv = {
    NODE_EXTRA_CA_CERTS: BUNDLE,
    SSL_CERT_FILE: BUNDLE,
    NODE_OPTIONS: "--max-old-space-size=512",
  };
  assert.equal(deferCertificateLoading(env), true);
  assert.deepEqual(env, { SSL_CERT_FILE: BUNDLE, NODE_OPTIONS: "--max-old-space-size=512 --use-openssl-ca" });
  const bare: NodeJS.ProcessEnv = { NODE_EXTRA_CA_CERTS: BUNDLE, SSL_CERT_FILE: BUNDLE };
  deferCertificateLoading(bare);
  assert.deepEqual(bare, { SSL_CERT_FILE: BUNDLE, NODE_OPTIONS: "--use-openssl-ca" });
});

test("an extra file OpenSSL does not read, or none, is left as it is: Node would trust other certificates", () => {
  for (const env of [
    { NODE_EXTRA_CA_CERTS: "/corp/ca.pem", SSL_CERT_FILE: BUNDLE },
    { NODE_EXTRA_CA_CERTS: "/corp/ca.pem" },
    { SSL_CERT_FILE: BUNDLE },
    {},
  ] as NodeJS.ProcessEnv[]) {
    const before = { ...env };
    assert.equal(deferCertificateLoading(env), false);
    assert.deepEqual(env, before);
  }
});

test("the Node the runner starts accepts the flag it is given", () => {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_EXTRA_CA_CERTS: BUNDLE, SSL_CERT_FILE: BUNDLE };
  deferCertificateLoading(env);
  const r = spawnSync(process.execPath, ["-p", "process.env.NODE_EXTRA_CA_CERTS ?? 'unset'"], {
    env,
    encoding: "utf8",
  });
  assert.equal(r.status, 0, r.stderr);
  assert.equal(r.stdout.trim(), "unset");
});

test(
  "a python3 shim on PATH is passed over: the folder of the interpreter it starts comes first",
  requires("python3"),
  () => {
    const real = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8" }).stdout.trim();
    const shims = mkdtempSync(join(tmpdir(), "startup-shims-"));
    try {
      writeFileSync(join(shims, "python3"), `#!/bin/sh\nexec ${JSON.stringify(real)} "$@"\n`, { mode: 0o755 });
      const env: NodeJS.ProcessEnv = { ...process.env, PATH: `${shims}${delimiter}${process.env.PATH}` };
      assert.equal(passOverPythonShim(env), true);
      assert.deepEqual(env.PATH!.split(delimiter).slice(0, 2), [dirname(real), shims]);
    } finally {
      rmSync(shims, { recursive: true, force: true });
    }
  },
);

test("without a python3 on PATH, PATH is left as it is", () => {
  const env: NodeJS.ProcessEnv = { PATH: "/nonexistent" };
  assert.equal(passOverPythonShim(env), false);
  assert.deepEqual(env, { PATH: "/nonexistent" });
});
