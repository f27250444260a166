/**
 * What the test runner (scripts/run-tests.mjs, which loads this from dist/) changes in the
 * environment of every process a run starts, so that none of the thousands pays at start-up for
 * what it does not use.
 */
import { spawnSync } from "node:child_process";
import { delimiter, dirname } from "node:path";

/**
 * A version manager's shim for python3 (pyenv's is a bash script: 50 ms of CPU for each
 * interpreter) is passed over: the folder of the interpreter it starts comes first on PATH.
 * Changes `env` in place; returns whether it did.
 */
export function passOverPythonShim(env: NodeJS.ProcessEnv): boolean {
  const python = spawnSync("python3", ["-c", "import sys; print(sys.executable)"], { encoding: "utf8", env });
  const executable = python.status === 0 ? python.stdout.trim() : "";
  if (!executable) return false;
  env.PATH = `${dirname(executable)}${delimiter}${env.PATH}`;
  return true;
}

/**
 * Node builds its whole root store at every start when NODE_EXTRA_CA_CERTS is set: 70 ms of CPU for
 * each process on a 2-core machine. When that file is also OpenSSL's (SSL_CERT_FILE, as in images
 * that point every tool at the system's certificates), Node is sent to OpenSSL's store instead
 * (`--use-openssl-ca`), which trusts that same file and is read at the first TLS connection.
 * Changes `env` in place; returns whether it did.
 */
export function deferCertificateLoading(env: NodeJS.ProcessEnv): boolean {
  if (!env.NODE_EXTRA_CA_CERTS || env.NODE_EXTRA_CA_CERTS !== env.SSL_CERT_FILE) return false;
  delete env.NODE_EXTRA_CA_CERTS;
  env.NODE_OPTIONS = [env.NODE_OPTIONS, "--use-openssl-ca"].filter(Boolean).join(" ");
  return true;
}
