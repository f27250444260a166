/**
 * `executa manifest` on Go projects that call the host (the go/ast helper): a helper whose
 * capability executa.json lacks is a warning at the call (exit 2 under --strict), also in the
 * package's functions the tool calls; an unused capability is a warning on executa.json, except
 * beside a Host.Request whose method is computed.
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

const MAIN = `package main

import (
	_ "embed"
	"os"

	"example.com/notes/internal/executa"
)

//go:embed manifest.json
var manifestJSON []byte

func main() {
	os.Exit(executa.Run(manifestJSON, bindings))
}
`;

const TOOLS = `package main

import (
	"context"

	"example.com/notes/internal/executa"
)

// SummarizeArgs are the parameters of summarize.
type SummarizeArgs struct {
	// The text to summarize.
	Text string \`json:"text"\`
}

// Summary is what summarize returns.
type Summary struct {
	Summary string \`json:"summary"\`
}

// Summarize a text with the host's language model.
//
//executa:tool name=summarize timeout=60
func Summarize(ctx context.Context, args SummarizeArgs) (*Summary, error) {
	result, err := executa.FromContext(ctx).Host.Sample(ctx, executa.SampleRequest{Prompt: "Summarize in one line: " + args.Text})
	if err != nil {
		return nil, err
	}
	return &Summary{Summary: result.Content.Text}, nil
}

// SaveNoteArgs are the parameters of save_note.
type SaveNoteArgs struct {
	// Where to keep it.
	Key string \`json:"key"\`
	// What to keep.
	Text string \`json:"text"\`
}

// Saved is what save_note returns.
type Saved struct {
	Saved bool \`json:"saved"\`
}

// SaveNote saves a note for later.
//
//executa:tool name=save_note
func SaveNote(ctx context.Context, args SaveNoteArgs) (*Saved, error) {
	if err := remember(ctx, args.Key, args.Text); err != nil {
		return nil, err
	}
	return &Saved{Saved: true}, nil
}
`;

const MEMORY = `package main

import (
	"context"

	"example.com/notes/internal/executa"
)

func remember(ctx context.Context, key, text string) error {
	inv := executa.FromContext(ctx)
	return store(ctx, inv.Host, "notes/"+key, text)
}

func store(ctx context.Context, host *executa.HostClient, key, value string) error {
	_, err := host.StorageSet(ctx, key, value, executa.StorageOptions{Scope: "user"})
	return err
}
`;

const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

function project(files: Record<string, string>, capabilities?: string[]): string {
  const dir = writeProject({
    "executa.json": executaJson("go", capabilities ? { host_capabilities: capabilities } : {}),
    "go.mod": "module example.com/notes\n\ngo 1.21\n",
    "main.go": MAIN,
    ...files,
  });
  made.push(dir);
  cpSync(join(TEMPLATES_DIR, "go", "internal", "executa"), join(dir, "internal", "executa"), { recursive: true });
  return dir;
}

async function warnings(dir: string): Promise<string[]> {
  const generated = await generateManifest(dir);
  assert.equal(generated.via, "go");
  return generated.diagnostics.map(formatDiagnostic);
}

const needs = (tool: string, helper: string, method: string, capability: string) =>
  `${tool} calls ${helper} (${method}), which needs ${capability} in host_capabilities; add it to executa.json and run executa manifest`;

test(
  "go: sampling without llm.sample is a warning at the call, an error with exit 2 under --strict; storage two functions away is found",
  requires("go"),
  async () => {
    const dir = project({ "tools.go": TOOLS, "memory.go": MEMORY });
    const sample = `${whereIs("tools.go", TOOLS, "executa.FromContext(ctx).Host.Sample(")}: warning: ${needs("summarize", "Host.Sample", "sampling/createMessage", '"llm.sample"')}`;
    const storage = `${whereIs("memory.go", MEMORY, "host.StorageSet(")}: warning: ${needs("save_note", "host.StorageSet", "storage/set", '"aps.kv" (or an "aps.scope.*" capability)')}`;
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

test("go: an unused capability is a warning on executa.json; the right ones are silent", requires("go"), async () => {
  const files = { "tools.go": TOOLS, "memory.go": MEMORY };
  const json = executaJson("go", { host_capabilities: ["llm.sample", "aps.scope.user.write", "host.upload"] });
  assert.deepEqual(await warnings(project(files, ["llm.sample", "aps.scope.user.write", "host.upload"])), [
    `${whereIs("executa.json", json, '"host.upload"')}: warning: host_capabilities declares "host.upload", but no tool calls a helper that sends host/uploadFile; remove it from executa.json and run executa manifest (executa follows each tool into its own project's functions only: a call in another package, or through a function kept in a variable, goes unseen)`,
  ]);
  assert.deepEqual(await warnings(project(files, ["llm.sample", "aps.scope.user.write"])), []);
});

test(
  "go: agent sessions by assignment and by parameter type, a constant Request method; a computed one keeps every capability",
  requires("go"),
  async () => {
    const tools = `package main

import (
	"context"
	"encoding/json"

	"example.com/notes/internal/executa"
)

const methodEmbed = "embeddings/create"

// ResearchArgs are the parameters of research.
type ResearchArgs struct {
	// The question.
	Question string \`json:"question"\`
}

// Answer is what research returns.
type Answer struct {
	Text string \`json:"text"\`
}

// Research a question with an agent.
//
//executa:tool name=research
func Research(ctx context.Context, args ResearchArgs) (*Answer, error) {
	host := executa.FromContext(ctx).Host
	session, err := host.AgentCreate(ctx, executa.AgentSessionOptions{Label: "research"})
	if err != nil {
		return nil, err
	}
	run, err := session.Run(ctx, args.Question, executa.AgentRunOptions{})
	if err != nil {
		return nil, err
	}
	if _, err := host.Request(ctx, methodEmbed, map[string]any{"input": []string{run.Text}}); err != nil {
		return nil, err
	}
	kept := []*executa.AgentSession{session}
	return &Answer{Text: run.Text}, forget(ctx, kept[0])
}

func forget(ctx context.Context, s *executa.AgentSession) error {
	return s.Delete(ctx)
}

// ForwardArgs are the parameters of forward.
type ForwardArgs struct {
	// The method.
	Method string \`json:"method"\`
}

// Forward a request to the host.
//
//executa:tool name=forward
func Forward(ctx context.Context, args ForwardArgs) (json.RawMessage, error) {
	return executa.FromContext(ctx).Host.Request(ctx, args.Method, nil)
}
`;
    const agent = '"llm.agent.auto" (or "llm.agent.fixed")';
    assert.deepEqual(await warnings(project({ "tools.go": tools }, ["aps.files"])), [
      `${whereIs("tools.go", tools, "host.AgentCreate(")}: warning: ${needs("research", "host.AgentCreate", "agent/session.create", agent)}`,
      `${whereIs("tools.go", tools, "session.Run(")}: warning: ${needs("research", "session.Run", "agent/session.run", agent)}`,
      `${whereIs("tools.go", tools, "host.Request(")}: warning: ${needs("research", "host.Request", "embeddings/create", '"llm.embed"')}`,
      `${whereIs("tools.go", tools, "s.Delete(")}: warning: ${needs("research", "s.Delete", "agent/session.delete", agent)}`,
    ]);
    const without = tools.replace("executa.FromContext(ctx).Host.Request(ctx, args.Method, nil)", "nil, nil");
    const declared = ["llm.agent.auto", "llm.embed", "aps.files"];
    assert.deepEqual(
      (await warnings(project({ "tools.go": without }, declared))).map((w) => w.split(",")[0]),
      [
        `${whereIs("executa.json", executaJson("go", { host_capabilities: declared }), '"aps.files"')}: warning: host_capabilities declares "aps.files"`,
      ],
    );
  },
);
