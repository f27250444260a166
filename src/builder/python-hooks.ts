/**
 * PyInstaller runs a run-time hook for every hooked module the build contains, at every start.
 * The standard library pulls `inspect`, `pkgutil` and `multiprocessing` into every plugin (asyncio,
 * concurrent.futures, runpy), and their hooks import them, plus ast, zipfile, ctypes and more:
 * most of the start-up a frozen plugin has over `python3 -m`. Their hooks only patch the module
 * they are named after, so here they run when the plugin first imports that module instead:
 * the same patches, in place before any code can use the module, and no cost for plugins that
 * never import it.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { ExecutaError } from "../common/errors.js";
import { exec, tail } from "../common/exec.js";

/** The hooked modules whose PyInstaller run-time hooks only patch the module itself once imported. */
export const DEFERRED_HOOK_MODULES = ["inspect", "multiprocessing", "pkgutil"] as const;

/** Prints `{module: [hook file, ...]}` for the modules asked, from the installed PyInstaller's rthooks.dat. */
const HOOK_FILES_SCRIPT = `
import ast, json, os, sys
import PyInstaller
hooks = os.path.join(os.path.dirname(PyInstaller.__file__), "hooks")
with open(os.path.join(hooks, "rthooks.dat"), encoding="utf-8") as f:
    table = ast.literal_eval(f.read())
print(json.dumps({m: [os.path.join(hooks, "rthooks", n) for n in table.get(m, [])] for m in sys.argv[1:]}))
`;

/**
 * The hook that stands in for a module's PyInstaller run-time hooks: it waits, as the first import
 * finder, for the module's import, lets the real finder and loader import it, and then runs the
 * hooks, as PyInstaller would have done earlier. Python; `hooks` is a list of [file name, source].
 */
function deferredHook(module: string, hooks: Array<[string, string]>): string {
  return `# executa build: PyInstaller's run-time hooks for \`${module}\`, run when the plugin first imports it.


def _executa_defer(name, hooks):
    import sys

    class RunHooksAfterImport:
        def find_spec(self, fullname, path=None, target=None):
            if fullname != name:
                return None
            # A new list, never a change in place: another thread may be iterating the old one.
            sys.meta_path = [finder for finder in sys.meta_path if finder is not self]
            for finder in sys.meta_path:
                find_spec = getattr(finder, "find_spec", None)
                spec = find_spec(fullname, path, target) if find_spec else None
                if spec is not None:
                    if getattr(spec.loader, "exec_module", None) is not None:
                        spec.loader = ThenRunHooks(spec.loader)
                    return spec
            return None

    class ThenRunHooks:
        def __init__(self, loader):
            self.loader = loader

        def create_module(self, spec):
            return self.loader.create_module(spec)

        def exec_module(self, module):
            module.__loader__ = module.__spec__.loader = self.loader
            self.loader.exec_module(module)
            for filename, source in hooks:
                exec(compile(source, filename, "exec"), {"__name__": filename[:-3]})

    sys.meta_path.insert(0, RunHooksAfterImport())


_executa_defer(${JSON.stringify(module)}, ${JSON.stringify(hooks)})
del _executa_defer
`;
}

/**
 * Writes a PyInstaller hooks folder (for `--additional-hooks-dir`) whose rthooks.dat replaces the
 * run-time hooks of DEFERRED_HOOK_MODULES with deferred ones. Returns the folder.
 */
export async function writeDeferredHooks(python: string, workDir: string): Promise<string> {
  const found = await exec(python, ["-c", HOOK_FILES_SCRIPT, ...DEFERRED_HOOK_MODULES]);
  if (found.code !== 0) {
    throw new ExecutaError(`could not read PyInstaller's run-time hooks table: ${tail(found.stderr, 2)}`, {
      hint: "reinstall PyInstaller in the environment that builds the plugin",
    });
  }
  const table = JSON.parse(found.stdout) as Record<string, string[]>;
  const dir = join(workDir, "executa-hooks");
  mkdirSync(join(dir, "rthooks"), { recursive: true });
  const replaced: Record<string, string[]> = {};
  for (const module of DEFERRED_HOOK_MODULES) {
    const files = table[module] ?? [];
    if (files.length === 0) continue; // this PyInstaller has no hook for it: nothing to defer
    const file = `executa_deferred_${module}.py`;
    writeFileSync(
      join(dir, "rthooks", file),
      deferredHook(
        module,
        files.map((f) => [basename(f), readFileSync(f, "utf8")]),
      ),
    );
    replaced[module] = [file];
  }
  // A Python literal; JSON's objects, arrays and strings are valid ones.
  writeFileSync(join(dir, "rthooks.dat"), JSON.stringify(replaced, null, 1) + "\n");
  return dir;
}
