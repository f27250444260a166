/**
 * What `--open` hands the desktop's opener: not the link (an argument any local user reads in
 * /proc/<pid>/cmdline) but a file only this user can read, in a folder only this user can enter,
 * that forwards the browser to the link. The file goes once its code is spent or expired.
 */
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { makeTempDir, removeNow } from "../../common/cleanup.js";
import { pathToFileURL } from "node:url";

export interface OpenerFile {
  /** A file:// URL, safe to pass on a command line. */
  url: string;
  remove(): void;
}

const escapeAttribute = (text: string) => text.replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;");

export function writeOpenerFile(link: string): OpenerFile {
  const dir = makeTempDir("executa-inspect-open-");
  const file = join(dir, "open.html");
  const href = escapeAttribute(link);
  writeFileSync(
    file,
    `<!doctype html>
<meta charset="utf-8">
<meta name="referrer" content="no-referrer">
<meta http-equiv="refresh" content="0;url=${href}">
<title>executa inspect</title>
<p><a href="${href}" rel="noreferrer">Open executa inspect</a></p>
`,
    { mode: 0o600, flag: "wx" },
  );
  return { url: pathToFileURL(file).href, remove: () => removeNow(dir) };
}
