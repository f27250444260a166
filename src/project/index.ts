export {
  bindingsFileName, bindingsPath, GENERATED_FILE_NAMES, LANGUAGES, LANGUAGE_NAMES, languageOfType, languagePath, MANIFEST_PATH, resolveLanguage, TEMPLATE_PY_MODULE,
  type Language,
} from "./languages.js";
export { EXECUTA_JSON, readExecutaJson, updateExecutaJson, type ExecutaJson } from "./executa-json.js";
export { checkOutputFolder, checkProjectPaths, projectPath, writeProjectFile } from "./write.js";
export { parseGoMod, parsePyProject, readGoMod, readJsonObject, readPyProject, type GoMod, type JsonObject, type PyProject } from "./files.js";
export { findPyModule, projectPython, projectVenv, requirePython, toolchainProgram, toolchainPython, venvProgram } from "./python.js";
export { bindingsPathOf, detectLanguage, loadAnyProject, loadProject, pyModuleOf, type BinaryProject, type Project, type SourceProject } from "./load.js";
export {
  binaryEntryOf, EXECUTA_TYPES, MANIFEST_FROM_PLUGIN, entryOf, goEntryArgs, goFileSet, goMainFiles, insideProject, manifestFromPlugin, pythonEntry,
  type ExecutaType, type PythonEntry,
} from "./entry.js";
export { candidateOfEntry, findEntryCandidates, type EntryCandidate } from "./candidates.js";
export { nativePlatformOf, platformOfHeader } from "./native.js";
export {
  createCommand, dlxBin, execBin, frozenInstallCommand, globalInstall, installCommand, isYarnClassic, LOCKFILES, PACKAGE_MANAGER_NAMES,
  packageManagerField, packageManagerFromUserAgent, packageManagerOfProject, parsePackageManagerName, resolvePackageManager, runScript,
  type PackageManager, type PackageManagerName,
} from "./package-managers.js";
export { DEFAULT_TEMPLATE, resolveTemplate, templateChoices, TEMPLATE_NAMES, TEMPLATES, type TemplateName } from "./templates.js";
