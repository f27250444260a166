/** The page of `executa inspect`: one HTML shell and the two files esbuild bundled into the package. */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { ExecutaError } from "../../common/errors.js";
import { PACKAGE_VERSION, WEB_DIR } from "../../common/package-info.js";
import { PAGE_CSP } from "./http.js";

export interface PageAssets {
  html: string;
  /** What a visit without the cookie or a live code sees. */
  refused: string;
  csp: string;
  files: Map<string, { type: string; body: Buffer }>;
}

export function pageAssets(dir = WEB_DIR): PageAssets {
  const read = (name: string) => {
    try {
      return readFileSync(join(dir, name));
    } catch {
      throw new ExecutaError(`the inspect page is missing from this package (${join(dir, name)})`, {
        hint: "in a checkout of create-executa, run npm run build",
      });
    }
  };
  const files = new Map([
    ["/app.js", { type: "text/javascript; charset=utf-8", body: read("app.js") }],
    ["/app.css", { type: "text/css; charset=utf-8", body: read("app.css") }],
  ]);
  return {
    csp: PAGE_CSP,
    files,
    html: `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" href="data:,">
<title>executa inspect</title>
<meta name="referrer" content="no-referrer">
<link rel="stylesheet" href="/app.css">
<script type="module" src="/app.js"></script>
</head>
<body data-version="${PACKAGE_VERSION}"><noscript>executa inspect needs JavaScript.</noscript></body>
</html>
`,
    refused: `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="referrer" content="no-referrer"><title>executa inspect: open a fresh link</title></head>
<body>
<h1>executa inspect</h1>
<p>This link was used already or has expired: a link works once, for a few minutes.</p>
<p>A fresh link is printed in the terminal where <code>executa inspect</code> runs: open that one.</p>
</body>
</html>
`,
  };
}
