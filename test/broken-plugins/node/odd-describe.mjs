#!/usr/bin/env node
// The reference plugin serving a describe of the wrong types: an object for display_name and for
// a tool's and a parameter's description, credentials as an object, a tool that is a string.
import { MANIFEST, serve } from "./_core.mjs";

const [echo, ...rest] = MANIFEST.tools;
serve({
  manifest: {
    ...MANIFEST,
    display_name: { en: "Odd" },
    description: ["not", "text"],
    tools: [{ ...echo, description: { text: "Echo" }, parameters: [{ ...echo.parameters[0], description: { p: 1 } }, ...echo.parameters.slice(1)] }, "not a tool", ...rest],
    credentials: { REF_SECRET: true },
    host_capabilities: "llm.sample",
  },
});
