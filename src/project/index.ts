export { LANGUAGES, LANGUAGE_NAMES, languageOfType, languagePath, resolveLanguage, type Language } from "./languages.js";
export { parseGoMod, parsePyProject, readGoMod, readJsonObject, readPyProject, type GoMod, type JsonObject, type PyProject } from "./files.js";
export { findPyModule, projectPython, projectVenv, requirePython, venvProgram } from "./python.js";
export { bindingsPathOf, detectLanguage, loadProject, pyModuleOf, type Project } from "./load.js";
export {
  createCommand, dlxBin, execBin, frozenInstallCommand, globalInstall, installCommand, isYarnClassic, LOCKFILES, PACKAGE_MANAGER_NAMES,
  packageManagerField, packageManagerFromUserAgent, packageManagerOfProject, parsePackageManagerName, resolvePackageManager, runScript,
  type PackageManager, type PackageManagerName,
} from "./package-managers.js";
