export {
  bindingsFileName,
  bindingsPath,
  GENERATED_FILE_NAMES,
  LANGUAGES,
  LANGUAGE_NAMES,
  languageOfType,
  languagePath,
  MANIFEST_PATH,
  resolveLanguage,
  TEMPLATE_PY_MODULE,
  type Language,
} from "./languages.js";
export { EXECUTA_JSON, readExecutaJson, updateExecutaJson } from "./executa-json.js";
export { checkOutputFolder, checkProjectPaths, projectPath, writeProjectFile } from "./write.js";
export { readJsonObject, readPyProject, type JsonObject } from "./files.js";
export { projectPython, projectVenv, requirePython, toolchainProgram, toolchainPython, venvProgram } from "./python.js";
export { detectLanguage, loadAnyProject, loadProject, pyModuleOf, type SourceProject } from "./load.js";
export {
  binaryEntryOf,
  EXECUTA_TYPES,
  MANIFEST_FROM_PLUGIN,
  entryOf,
  goEntryArgs,
  goMainFiles,
  insideProject,
  manifestFromPlugin,
  pythonEntry,
  type ExecutaType,
  type PythonEntry,
} from "./entry.js";
export { candidateOfEntry, findEntryCandidates, type EntryCandidate } from "./candidates.js";
export { nativePlatformOf } from "./native.js";
export {
  createCommand,
  dlxBin,
  execBin,
  frozenInstallCommand,
  globalInstall,
  installCommand,
  isYarnClassic,
  LOCKFILES,
  PACKAGE_MANAGER_NAMES,
  packageManagerField,
  packageManagerOfProject,
  resolvePackageManager,
  runScript,
  type PackageManager,
} from "./package-managers.js";
export { DEFAULT_TEMPLATE, resolveTemplate, TEMPLATE_NAMES, TEMPLATES, type TemplateName } from "./templates.js";
