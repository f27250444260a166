/**
 * Stack traces from a Node single executable that name src/ lines. Node compiles a single
 * executable's main script without reading its source map, so the main script is a small loader:
 * it turns source maps on, then compiles the bundle (carried as a SEA asset, its inline map
 * included) as a CommonJS module named after the executable, as Node names the main script there.
 * Its `require` stays the main script's, which loads built-in modules only.
 */

/** The SEA asset that holds the bundle. */
export const BUNDLE_ASSET = "plugin.cjs";

const LOADER = `"use strict";
process.setSourceMapsEnabled(true);
const Module = require("node:module");
const plugin = new Module(".", null);
plugin.filename = process.execPath;
plugin.paths = [];
plugin.require = require;
process.mainModule = plugin;
plugin._compile(require("node:sea").getAsset(${JSON.stringify(BUNDLE_ASSET)}, "utf8"), process.execPath);
`;

export interface SeaMain {
  /** The SEA main script. */
  code: string;
  /** SEA assets by name. */
  assets: Record<string, string>;
}

/** The main script and assets that run `bundle` with its source map honoured. */
export function sourceMappedMain(bundle: string): SeaMain {
  return { code: LOADER, assets: { [BUNDLE_ASSET]: bundle } };
}
