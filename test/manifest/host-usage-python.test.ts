/**
 * `executa manifest` on Python projects that call the host (the ast helper): a helper whose
 * capability executa.json lacks is a warning at the call (exit 2 under --strict), also in the
 * package's functions the tool calls; an unused capability is a warning on executa.json, except
 * beside a request whose method is computed.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { cpSync, rmSync } from "node:fs";
import { join } from "node:path";
import { after, test } from "node:test";
import { PACKAGE_ROOT, TEMPLATES_DIR } from "../../src/common/package-info.js";
import { generateManifest } from "../../src/manifest/index.js";
import { formatDiagnostic } from "../../src/protocol/index.js";
import { executaJson, whereIs, writeProject } from "./helpers.js";
import { requires } from "../support/requires.js";

const BIN = join(PACKAGE_ROOT, "bin", "executa.js");

const TOOLS = `from .executa import HostError, ToolContext, ToolError, tool
from .memory import remember


@tool(timeout=60)
def summarize(text: str, *, ctx: ToolContext) -> dict:
    """Summarize a text with the host's language model.

    Args:
        text: The text to summarize.
    """
    try:
        result = ctx.host.sample(prompt=f"Summarize in one line: {text}", max_tokens=200)
    except HostError as err:
        raise ToolError(f"the host refused: {err.message}") from None
    return {"summary": result["content"].get("text", "")}


@tool
def save_note(key: str, text: str, *, ctx: ToolContext) -> dict:
    """Save a note for later.

    Args:
        key: Where to keep it.
        text: What to keep.
    """
    remember(ctx, key, text)
    return {"saved": True}
`;

const MEMORY = `from .executa import HostClient


def remember(ctx, key, text):
    host = ctx.host
    _store(host, "notes/" + key, text)


def _store(host: HostClient, key, value):
    host.storage.set(key, value, scope="user")
`;

const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>, capabilities?: string[]): string {
  const dir = writeProject({
    "executa.json": executaJson("python", capabilities ? { host_capabilities: capabilities } : {}),
    "pyproject.toml":
      '[project]\nname = "notes"\nversion = "1.0.0"\n[project.scripts]\nnotes = "notes.__main__:main"\n',
    "notes/__init__.py": "",
    ...files,
  });
  made.push(dir);
  cpSync(join(TEMPLATES_DIR, "python", "__pyModule__", "executa"), join(dir, "notes", "executa"), { recursive: true });
  return dir;
}

async function warnings(dir: string): Promise<string[]> {
  const generated = await generateManifest(dir);
  assert.equal(generated.via, "python");
  return generated.diagnostics.map(formatDiagnostic);
}

const needs = (tool: string, helper: string, method: string, capability: string) =>
  `${tool} calls ${helper} (${method}), which needs ${capability} in host_capabilities; add it to executa.json and run executa manifest`;

test(
  "python: sampling without llm.sample is a warning at the call, an error with exit 2 under --strict; storage two functions away is found",
  requires("python3"),
  async () => {
    const dir = project({ "notes/tools.py": TOOLS, "notes/memory.py": MEMORY });
    const sample = `${whereIs("notes/tools.py", TOOLS, "ctx.host.sample(")}: warning: ${needs("summarize", "ctx.host.sample", "sampling/createMessage", '"llm.sample"')}`;
    const storage = `${whereIs("notes/memory.py", MEMORY, "host.storage.set(")}: warning: ${needs("save_note", "host.storage.set", "storage/set", '"aps.kv" (or an "aps.scope.*" capability)')}`;
    assert.deepEqual(await warnings(dir), [sample, storage]);

    const strict = spawnSync(process.execPath, [BIN, "manifest", "--strict"], {
      cwd: dir,
      encoding: "utf8",
      env: { ...process.env, NO_COLOR: "1" },
    });
    assert.equal(strict.status, 2);
    assert.deepEqual(strict.stderr.trimEnd().split("\n"), [
      sample.replace(": warning: ", ": error: "),
      storage.replace(": warning: ", ": error: "),
      "executa: error: manifest.json was not written (2 errors)",
    ]);
  },
);

test(
  "python: an unused capability is a warning on executa.json; the right ones are silent",
  requires("python3"),
  async () => {
    const files = { "notes/tools.py": TOOLS, "notes/memory.py": MEMORY };
    const json = executaJson("python", { host_capabilities: ["llm.sample", "aps.kv", "llm.image"] });
    assert.deepEqual(await warnings(project(files, ["llm.sample", "aps.kv", "llm.image"])), [
      `${whereIs("executa.json", json, '"llm.image"')}: warning: host_capabilities declares "llm.image", but no tool calls a helper that sends image/generate; remove it from executa.json and run executa manifest (executa follows each tool into its own project's functions only: a call in another package, or through a function kept in a variable, goes unseen)`,
    ]);
    assert.deepEqual(await warnings(project(files, ["llm.sample", "aps.kv"])), []);
  },
);

test(
  "python: sessions, keyword and constant request methods; a computed method keeps every capability",
  requires("python3"),
  async () => {
    const tools = `from .executa import ToolContext, tool

EDIT = "image/edit"


@tool
def research(question: str, *, ctx: ToolContext) -> dict:
    """Research a question with an agent.

    Args:
        question: The question.
    """
    session = ctx.host.agent.create(label="research")
    answer = session.run(question)
    ctx.host.request(method="embeddings/create", params={"input": [answer.text]})
    ctx.host.request(EDIT, {"prompt": question})
    return {"answer": answer.text}


@tool
def forward(method: str, *, ctx: ToolContext) -> dict:
    """Forward a request to the host.

    Args:
        method: The method.
    """
    return ctx.host.request(method, {})
`;
    const dir = project({ "notes/tools.py": tools }, ["llm.agent.auto", "aps.files"]);
    assert.deepEqual(await warnings(dir), [
      `${whereIs("notes/tools.py", tools, 'ctx.host.request(method="embeddings')}: warning: ${needs("research", "ctx.host.request", "embeddings/create", '"llm.embed"')}`,
      `${whereIs("notes/tools.py", tools, "ctx.host.request(EDIT")}: warning: ${needs("research", "ctx.host.request", "image/edit", '"llm.image.edit"')}`,
    ]);
    // Without the computed request, aps.files is unused; and without llm.agent.auto both session calls say so.
    const declared = ["aps.files", "llm.embed", "llm.image.edit"];
    const fixed = project({ "notes/tools.py": tools.replace("ctx.host.request(method, {})", "{}") }, declared);
    const at = whereIs("executa.json", executaJson("python", { host_capabilities: declared }), '"aps.files"');
    assert.deepEqual(
      (await warnings(fixed)).map((w) => w.split(", which")[0]!.split(",")[0]),
      [
        `${whereIs("notes/tools.py", tools, "ctx.host.agent.create(")}: warning: research calls ctx.host.agent.create (agent/session.create)`,
        `${whereIs("notes/tools.py", tools, "session.run(")}: warning: research calls session.run (agent/session.run)`,
        `${at}: warning: host_capabilities declares "aps.files"`,
      ],
    );
  },
);
