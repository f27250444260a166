#!/usr/bin/env node
// A plugin that never answers anything: it reads stdin and throws it away, ignores SIGTERM and
// keeps running after stdin closes. The host must give up on it on its own schedule.
process.stdin.on("data", () => undefined);
process.stdin.on("end", () => process.stderr.write("stdin closed; staying up anyway\n"));
process.on("SIGTERM", () => process.stderr.write("SIGTERM ignored\n"));
setInterval(() => undefined, 60_000);
