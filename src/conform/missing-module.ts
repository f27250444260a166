/** A plugin that cannot import one of its modules says so in the language's own words. */

const MISSING_MODULE = [
  /\bModuleNotFoundError: .*/, // Python: No module named 'x'
  /\bImportError: .*/, // Python: cannot import name, a native extension that will not load
  /\bCannot find (?:module|package) '[^']+'.*/, // Node: require / import
  /\bERR_MODULE_NOT_FOUND\b.*/,
  /\berror while loading shared libraries: .*/, // a cgo binary's libraries (glibc's loader)
  /\bLibrary not loaded: .*/, // macOS dyld
];

/** The line that says a module or library could not be loaded, if `text` holds one. */
export function missingModuleLine(text: string): string | undefined {
  for (const re of MISSING_MODULE) {
    const found = re.exec(text);
    if (found) return found[0].trim().slice(0, 300);
  }
  return undefined;
}
