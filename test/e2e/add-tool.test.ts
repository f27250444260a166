/**
 * A project of each language scaffolded from the packed package (the default `examples` template),
 * checked as created (its manifest, no machine path, its own tests, `executa manifest --check
 * --strict`, `executa test` with 10,000 fuzzed frames); then `executa add tool` on it: tools with
 * every parameter form, then the project's own tests, `executa manifest --check` and `executa test`
 * again; refusals and --dry-run leave every file byte-identical. One scaffold per language serves
 * the whole journey.
 */
import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { after, describe, test } from "node:test";
import { commentLine } from "../../src/scaffold/escape.js";
import { REPO_ROOT, installedToolchain, run, tempDir, toolchain } from "./toolchain.js";
import { requires, type ToolName } from "../support/requires.js";

const expectedTools = JSON.parse(readFileSync(join(REPO_ROOT, "test", "fixtures", "template-tools.json"), "utf8"));
const hostile: string[] = JSON.parse(readFileSync(join(REPO_ROOT, "test", "fixtures", "hostile-strings.json"), "utf8"));

const LANGS = {
  ts: { needs: [], tests: [["npm", ["test"]]] },
  python: { needs: ["python3", "pytest"], tests: [["python3", ["-m", "pytest", "-q"]]] },
  go: {
    needs: ["go"],
    tests: [
      ["gofmt", ["-l", "."]],
      ["go", ["vet", "./..."]],
      ["go", ["test", "./..."]],
    ],
  },
} as const satisfies Record<
  string,
  { needs: readonly ToolName[]; tests: readonly (readonly [string, readonly string[]])[] }
>;

/** Every parameter form of the grammar, and the manifest parameters each must give, in every language. */
const EVERY_FORM = [
  "city:string",
  "days?:integer=3",
  "units:enum(metric|imperial)=metric",
  "tags:string[]",
  "modes?:enum(fast|slow)[]",
  "ratio:number=0.5",
  "verbose?:boolean",
  "options?:object",
  "limits:integer[]=1,2",
  "strict:boolean=true",
];
const describe_ = (name: string) => `TODO: describe ${name}.`;
const EVERY_FORM_MANIFEST = [
  { name: "city", type: "string", description: describe_("city"), required: true },
  { name: "days", type: "integer", description: describe_("days"), required: false, default: 3 },
  {
    name: "units",
    type: "string",
    description: describe_("units"),
    required: false,
    default: "metric",
    enum: ["metric", "imperial"],
  },
  { name: "tags", type: "array", description: describe_("tags"), required: true, items: { type: "string" } },
  {
    name: "modes",
    type: "array",
    description: describe_("modes"),
    required: false,
    items: { type: "string", enum: ["fast", "slow"] },
  },
  { name: "ratio", type: "number", description: describe_("ratio"), required: false, default: 0.5 },
  { name: "verbose", type: "boolean", description: describe_("verbose"), required: false },
  { name: "options", type: "object", description: describe_("options"), required: false },
  {
    name: "limits",
    type: "array",
    description: describe_("limits"),
    required: false,
    default: [1, 2],
    items: { type: "integer" },
  },
  { name: "strict", type: "boolean", description: describe_("strict"), required: false, default: true },
];

/** A default no language's literal may break. */
const TRICKY_DEFAULT = 'say "hi" `x` \\ $HOME {{x}} \u00e9';

/** sha256 of every file the author owns (not installed dependencies or build output), by path. */
function snapshot(root: string, rel = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const e of readdirSync(join(root, rel), { withFileTypes: true })) {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory()) {
      if (!["node_modules", ".venv", "dist", "__pycache__", ".pytest_cache"].includes(e.name))
        Object.assign(out, snapshot(root, path));
    } else
      out[path] = createHash("sha256")
        .update(readFileSync(join(root, path)))
        .digest("hex");
  }
  return out;
}

const roots: string[] = [];
after(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

/** The project's own files: not installed dependencies, virtual environments or git's. */
function projectFiles(root: string, rel = ""): string[] {
  return readdirSync(join(root, rel), { withFileTypes: true }).flatMap((e) => {
    const path = rel ? `${rel}/${e.name}` : e.name;
    if (e.isDirectory())
      return ["node_modules", ".venv", ".git", "dist", "__pycache__"].includes(e.name) ? [] : projectFiles(root, path);
    return [path];
  });
}

function addTool(dir: string, args: string[]) {
  return toolchain("executa", ["add", "tool", ...args, dir], { env: { CI: "true", NO_COLOR: "1" } });
}

for (const [lang, { needs, tests }] of Object.entries(LANGS)) {
  describe(`a scaffolded ${lang} plugin, then executa add tool in it`, {
    ...requires(...needs),
    timeout: 15 * 60_000,
  }, () => {
    const root = tempDir(`add-tool-${lang}`);
    roots.push(root);
    const dir = join(root, "weather");

    test("is created from the examples template with a generated manifest", () => {
      const created = toolchain("create-executa", [
        dir,
        "--lang",
        lang,
        "--json",
        "--no-git",
        `--toolchain=file:${installedToolchain().tarball}`,
        ...(lang === "ts" ? [] : ["--no-install"]),
      ]);
      assert.equal(created.status, 0, created.output);
      const summary = JSON.parse(created.stdout) as {
        status: string;
        dryRun: boolean;
        template: string;
        steps: { step: string; status: string }[];
      };
      assert.equal(summary.status, "ok");
      assert.equal(summary.dryRun, false);
      assert.equal(summary.template, "examples");
      assert.equal(summary.steps.find((s) => s.step === "manifest")?.status, "done", JSON.stringify(summary.steps));
      if (lang === "ts")
        assert.equal(summary.steps.find((s) => s.step === "install")?.status, "done", JSON.stringify(summary.steps));
      const manifest = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8"));
      assert.equal(manifest.name, "weather");
      assert.equal(manifest.version, "0.1.0");
      assert.deepEqual(manifest.tools, expectedTools);
      assert.deepEqual(manifest.host_capabilities, ["llm.sample"]);
      assert.equal(manifest.credentials[0].name, "SIGNING_SECRET");
    });

    test("holds no absolute path of this machine in any generated file", () => {
      const machinePaths = [REPO_ROOT, dirname(installedToolchain().tarball), dir];
      for (const file of projectFiles(dir)) {
        const text = readFileSync(join(dir, file), "utf8");
        for (const path of machinePaths) assert.ok(!text.includes(path), `${file} contains ${path}`);
      }
    });

    test("as created: passes its own tests, is in sync with its manifest under --strict, passes every conformance check with 10,000 fuzzed frames", () => {
      for (const [command, args] of tests) {
        const r = run(command, [...args], { cwd: dir, env: { CI: "true" } });
        assert.equal(r.status, 0, r.output);
        if (command === "gofmt") assert.equal(r.stdout.trim(), "", "gofmt wants to reformat:\n" + r.stdout);
      }
      const check = toolchain("executa", ["manifest", "--check", "--strict", dir]);
      assert.equal(check.status, 0, check.output);
      const checked = toolchain("executa", ["test", "--dir", dir, "--fuzz", "10000", "--seed", "7", "--json"]);
      assert.equal(checked.status, 0, checked.output);
      const failed = JSON.parse(checked.stdout).results.filter((r: { status: string }) => r.status !== "pass");
      assert.deepEqual(failed, [], checked.output);
    });

    test("adds a tool with every parameter form, one without parameters, and one with a required parameter after optional ones", () => {
      const added = addTool(dir, [
        "fetch_weather",
        "--description",
        "Get the weather forecast for a city.",
        "--timeout",
        "30",
        ...EVERY_FORM.flatMap((p) => ["--param", p]),
        "--json",
      ]);
      assert.equal(added.status, 0, added.output);
      const result = JSON.parse(added.stdout);
      assert.equal(result.status, "ok");
      assert.equal(result.files.length, 2, added.stdout);
      assert.deepEqual(
        [...result.regenerated].sort(),
        [
          "manifest.json",
          { ts: "src/executa.bindings.ts", python: "weather/executa_bindings.py", go: "executa_bindings.go" }[lang],
        ].sort(),
      );

      // TypeScript refuses an @ after a space (JSDoc would start a tag there); see the refusals.
      const text = lang === "ts" ? hostile.join("\n").replaceAll(" @", " ") : hostile.join("\n");
      for (const args of [
        ["ping-host", "--description", text],
        [
          "test_linux",
          "--param",
          "host?:string",
          "--param",
          "port:integer",
          "--param",
          `note:string=${TRICKY_DEFAULT}`,
        ],
      ]) {
        const r = addTool(dir, args);
        assert.equal(r.status, 0, r.output);
      }
      const tools = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")).tools as {
        name: string;
        description: string;
        timeout?: number;
        parameters: { name: string; default?: unknown; required?: boolean }[];
      }[];
      assert.deepEqual(tools.map((t) => t.name).sort(), [
        "fetch_weather",
        "ping-host",
        "sign_message",
        "summarize",
        "test_linux",
        "text_stats",
      ]);
      const fetch = tools.find((t) => t.name === "fetch_weather")!;
      assert.equal(fetch.description, "Get the weather forecast for a city.");
      assert.equal(fetch.timeout, 30);
      assert.deepEqual(fetch.parameters, EVERY_FORM_MANIFEST);
      const ping = tools.find((t) => t.name === "ping-host")!;
      assert.equal(ping.description, commentLine(text));
      assert.deepEqual(ping.parameters, []);
      const linux = tools.find((t) => t.name === "test_linux")!;
      assert.deepEqual(
        linux.parameters.map((p) => [p.name, p.required, p.default]),
        [
          ["host", false, undefined],
          ["port", true, undefined],
          ["note", false, TRICKY_DEFAULT],
        ],
      );
    });

    test("the project's own tests pass, its manifest is in sync and every conformance check passes", () => {
      for (const [command, args] of tests) {
        const r = run(command, [...args], { cwd: dir, env: { CI: "true" } });
        assert.equal(r.status, 0, r.output);
        if (command === "gofmt") assert.equal(r.stdout.trim(), "", "gofmt wants to reformat:\n" + r.stdout);
      }
      const check = toolchain("executa", ["manifest", "--check", dir]);
      assert.equal(check.status, 0, check.output);
      const checked = toolchain("executa", ["test", "--dir", dir, "--json"]);
      assert.equal(checked.status, 0, checked.output);
      const failed = JSON.parse(checked.stdout).results.filter(
        (r: { status: string }) => r.status !== "pass" && r.status !== "skip",
      );
      assert.deepEqual(failed, [], checked.output);
    });

    test("the running plugin serves the new tools with the manifest's defaults", () => {
      const invoke = (tool: string, args: object) => {
        const r = toolchain("executa", ["dev", dir, "--invoke", tool, "--args", JSON.stringify(args), "--json"]);
        assert.equal(r.status, 0, r.output);
        return JSON.parse(r.stdout).answer as { success: boolean; data: Record<string, unknown> };
      };
      const fetch = invoke("fetch_weather", { city: "Oslo", tags: ["wind"] });
      assert.equal(fetch.success, true, JSON.stringify(fetch));
      assert.deepEqual(
        {
          city: fetch.data.city,
          days: fetch.data.days,
          units: fetch.data.units,
          tags: fetch.data.tags,
          ratio: fetch.data.ratio,
          limits: fetch.data.limits,
          strict: fetch.data.strict,
        },
        { city: "Oslo", days: 3, units: "metric", tags: ["wind"], ratio: 0.5, limits: [1, 2], strict: true },
      );
      const linux = invoke("test_linux", { port: 22 });
      assert.equal(linux.data.note, TRICKY_DEFAULT);
      assert.equal(invoke("ping-host", {}).success, true);
    });

    test("refusals and --dry-run leave every file byte-identical", () => {
      // A file where the tool or its test would go (TypeScript keeps tools in src/tools/, so `tools` is free there).
      const taken = lang === "ts" ? "taken" : "tools";
      if (lang === "ts") writeFileSync(join(dir, "test", "tools", "taken.test.ts"), "// the author's\n");
      const before = snapshot(dir);
      const refusals: [string[], RegExp][] = [
        [["text_stats", "--param", "x:string"], /already has a tool named 'text_stats'/],
        [["fetch_weather"], /already has a tool named 'fetch_weather'/],
        [["9lives"], /not a tool name/],
        [["ok", "--param", "x:int"], /unknown type 'int'/],
        [["ok", "--param", "days:integer=soon"], /not a whole number/],
        [["ok", "--param", "a:string", "--param", "a:integer"], /given twice/],
        [["ok", "--timeout", "0"], /--timeout must be a whole number/],
        [[taken], /already exists, and add tool never overwrites/],
      ];
      if (lang === "ts")
        refusals.push([["delete"], /reserved word/], [["ok", "--description", "Greet @alice"], /starts a JSDoc tag/]);
      if (lang === "python") refusals.push([["lambda"], /Python keyword/]);
      if (lang === "go")
        refusals.push([["ok", "--param", "max_words:integer", "--param", "maxWords:integer"], /both be the Go field/]);
      for (const [args, message] of refusals) {
        const r = addTool(dir, [...args, "--json"]);
        assert.equal(r.status, 2, r.output);
        const body = JSON.parse(r.stdout);
        assert.equal(body.status, "error", r.stdout);
        assert.match(body.error.message, message);
        assert.ok(body.error.hint, r.stdout);
        assert.match(r.stderr, /^executa: error: /m);
      }
      const dry = addTool(dir, ["later", "--param", "q:string", "--dry-run", "--json"]);
      assert.equal(dry.status, 0, dry.output);
      const planned = JSON.parse(dry.stdout);
      assert.equal(planned.dryRun, true);
      assert.equal(planned.files.length, 2);
      assert.deepEqual(snapshot(dir), before);
    });
  });
}

/** Answers each prompt on a pseudo-terminal once its text appears; prints what the terminal showed. */
const PTY_DRIVER = `
import json, os, pty, select, sys, time
argv, answers = json.loads(sys.argv[1]), json.loads(sys.argv[2])
pid, fd = pty.fork()
if pid == 0:
    env = {k: v for k, v in os.environ.items() if k != "CI" and not k.lower().startswith("npm_")}
    env["NO_COLOR"] = "1"
    os.execvpe(argv[0], argv, env)
out = b""
def wait_for(text, seconds=60):
    global out
    end = time.time() + seconds
    while text.encode() not in out and time.time() < end:
        if select.select([fd], [], [], 0.2)[0]:
            try:
                out += os.read(fd, 65536)
            except OSError:
                return
for prompt, answer in answers:
    wait_for(prompt)
    out = out[out.index(prompt.encode()) + len(prompt):] if prompt.encode() in out else out
    os.write(fd, (answer + chr(13)).encode())
wait_for("the end of the output, which never appears", 120)
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode(errors="replace"))
sys.exit(os.waitstatus_to_exitcode(status))
`;

test("on a terminal, add tool asks for the name, the description and the parameters", requires("python3"), () => {
  const dir = join(tempDir("add-tool-ask"), "asked");
  roots.push(dirname(dir));
  const created = toolchain("create-executa", [dir, "--lang", "python", "--no-install", "--no-git", "--json"]);
  assert.equal(created.status, 0, created.output);
  const answers = [
    ["Tool name", "ask_me"],
    ["What it does", "Answer a question."],
    ["Parameter 1", "question:string"],
    ["Parameter 2", "n?:integer=2"],
    ["Parameter 3", ""],
  ];
  const r = run(
    "python3",
    [
      "-c",
      PTY_DRIVER,
      JSON.stringify([join(installedToolchain().bin, "executa"), "add", "tool"]),
      JSON.stringify(answers),
    ],
    { cwd: dir, env: { CI: "" } },
  );
  assert.equal(r.status, 0, r.output);
  const tool = JSON.parse(readFileSync(join(dir, "manifest.json"), "utf8")).tools.find(
    (t: { name: string }) => t.name === "ask_me",
  );
  assert.equal(tool.description, "Answer a question.");
  assert.deepEqual(
    tool.parameters.map((p: { name: string; default?: unknown }) => [p.name, p.default]),
    [
      ["question", undefined],
      ["n", 2],
    ],
  );
});

test("outside a project, add tool says what is missing, exit 2, and writes nothing", () => {
  const dir = tempDir("add-tool-empty");
  roots.push(dir);
  const r = addTool(dir, ["ok", "--json"]);
  assert.equal(r.status, 2, r.output);
  assert.match(JSON.parse(r.stdout).error.message, /cannot tell the language/);
  assert.deepEqual(readdirSync(dir), []);
});

test("without a terminal, a missing name is an error that prints the one-shot command", () => {
  const dir = tempDir("add-tool-noname");
  roots.push(dir);
  const r = toolchain("executa", ["add", "tool"], { cwd: dir, env: { CI: "" } });
  assert.equal(r.status, 2, r.output);
  assert.match(r.stderr, /no tool name given/);
  assert.match(r.stderr, /executa add tool fetch_weather --description/);
  assert.deepEqual(readdirSync(dir), []);
});
