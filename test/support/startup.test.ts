import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { test } from "node:test";
import { deferCertificateLoading } from "./startup.js";

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
