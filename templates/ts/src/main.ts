#!/usr/bin/env node
// The plugin's entry point: serve the tools in manifest.json over stdio.
// `executa manifest` regenerates manifest.json and ./executa.bindings.ts from the JSDoc in src/.
import manifest from "../manifest.json" with { type: "json" };
import { bindings } from "./executa.bindings.js";
import { run } from "./executa/index.js";

run({ manifest, bindings });
