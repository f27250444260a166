import assert from "node:assert/strict";
import { test } from "node:test";
import { ExecutaError } from "../../common/errors.js";
import { toolLayout } from "./layout.js";
import { checkNames, pascalCase } from "./names.js";
import { parseParam, parseParams } from "./params.js";

test("--param: every form of the grammar", () => {
  assert.deepEqual(parseParam("city:string"), { name: "city", type: "string", array: false, optional: false });
  assert.deepEqual(parseParam("days?:integer"), { name: "days", type: "integer", array: false, optional: true });
  assert.deepEqual(parseParam("days:integer=-3"), {
    name: "days",
    type: "integer",
    array: false,
    optional: true,
    default: -3,
  });
  assert.deepEqual(parseParam("ratio:number=2.5e-1"), {
    name: "ratio",
    type: "number",
    array: false,
    optional: true,
    default: 0.25,
  });
  assert.deepEqual(parseParam("on:boolean=false"), {
    name: "on",
    type: "boolean",
    array: false,
    optional: true,
    default: false,
  });
  assert.deepEqual(parseParam("q:string=a=b, c"), {
    name: "q",
    type: "string",
    array: false,
    optional: true,
    default: "a=b, c",
  });
  assert.deepEqual(parseParam("q:string="), { name: "q", type: "string", array: false, optional: true, default: "" });
  assert.deepEqual(parseParam('h:object={"a":[1]}'), {
    name: "h",
    type: "object",
    array: false,
    optional: true,
    default: { a: [1] },
  });
  assert.deepEqual(parseParam("u:enum(metric|imperial)=imperial"), {
    name: "u",
    type: "enum",
    values: ["metric", "imperial"],
    array: false,
    optional: true,
    default: "imperial",
  });
  assert.deepEqual(parseParam("tags:string[]"), { name: "tags", type: "string", array: true, optional: false });
  assert.deepEqual(parseParam("tags:string[]=a,b"), {
    name: "tags",
    type: "string",
    array: true,
    optional: true,
    default: ["a", "b"],
  });
  assert.deepEqual(parseParam('tags:string[]=["a,b"]'), {
    name: "tags",
    type: "string",
    array: true,
    optional: true,
    default: ["a,b"],
  });
  assert.deepEqual(parseParam("n:integer[]=1,2"), {
    name: "n",
    type: "integer",
    array: true,
    optional: true,
    default: [1, 2],
  });
  assert.deepEqual(parseParam("m?:enum(a|b)[]=b"), {
    name: "m",
    type: "enum",
    values: ["a", "b"],
    array: true,
    optional: true,
    default: ["b"],
  });
  assert.deepEqual(parseParam("e:string[]="), { name: "e", type: "string", array: true, optional: true, default: [] });
});

test("--param: bad grammar is exit 2 with the rule and an example", () => {
  const cases: [string, RegExp][] = [
    ["city", /not name:type/],
    ["city:", /the type is missing/],
    ["city:str", /unknown type 'str'/],
    ["tags:array", /unknown type 'array'/],
    ["1city:string", /'1city' is not a parameter name/],
    ["my-city:string", /'my-city' is not a parameter name/],
    ["n:integer=1.5", /not a whole number/],
    ["n:integer=9007199254740993", /not a whole number/],
    ["r:number=1e999", /not a number/],
    ["r:number=abc", /not a number/],
    ["b:boolean=yes", /not true or false/],
    ["u:enum(a|b)=c", /not one of a, b/],
    ["u:enum(a||b)", /empty/],
    ["u:enum(a|a)", /appears twice/],
    ["h:object=[1]", /not a JSON object/],
    ['t:integer[]=[1,"2"]', /item "2" is not of type integer/],
    ["t:object[]=a", /JSON array/],
    ["t:string[][]", /not name:type/],
  ];
  for (const [spec, message] of cases) {
    assert.throws(
      () => parseParam(spec),
      (e: unknown) =>
        e instanceof ExecutaError && e.exitCode === 2 && message.test(e.message) && /e\.g\./.test(e.hint ?? ""),
      spec,
    );
  }
  assert.throws(() => parseParams(["a:string", "a:integer"]), /given twice/);
});

test("names each language refuses, and Go fields that would collide", () => {
  assert.throws(() => checkNames("ts", "delete", []), /reserved word in TypeScript/);
  assert.throws(() => checkNames("python", "lambda", []), /Python keyword/);
  assert.throws(() => checkNames("python", "tool", []), /hide the @tool decorator/);
  assert.throws(() => checkNames("python", "ok", [parseParam("ctx:string")]), /tool context/);
  assert.throws(() => checkNames("ts", "ok", [parseParam("class:string")]), /reserved word/);
  assert.throws(
    () => checkNames("go", "ok", [parseParam("max_words:integer"), parseParam("maxWords:integer")]),
    /both be the Go field MaxWords/,
  );
  for (const bad of ["1x", "a__b", "a-", "_a", "a.b", "x".repeat(65)])
    assert.throws(() => checkNames("ts", bad, []), /not a tool name/, bad);
  for (const lang of ["ts", "python", "go"] as const)
    assert.doesNotThrow(() => checkNames(lang, "fetch-weather", [parseParam("class_:string")]));
  assert.equal(pascalCase("fetch-weather_now"), "FetchWeatherNow");
  assert.equal(pascalCase("getURL"), "GetURL");
});

test("layouts: one new file and its test per tool, never one the language's tools treat specially", () => {
  assert.deepEqual(toolLayout("ts", "fetch-weather"), {
    tool: "src/tools/fetch_weather.ts",
    test: "test/tools/fetch_weather.test.ts",
    stem: "fetch_weather",
    alsoFree: [],
  });
  assert.deepEqual(toolLayout("python", "fetch_weather", "pkg"), {
    tool: "pkg/fetch_weather.py",
    test: "tests/test_fetch_weather.py",
    stem: "fetch_weather",
    alsoFree: ["pkg/fetch_weather"],
  });
  // The extractor skips test_*.py, *_test.py and conftest.py.
  assert.equal(toolLayout("python", "test_connection", "pkg").tool, "pkg/tool_test_connection.py");
  assert.equal(toolLayout("python", "speed_test", "pkg").tool, "pkg/speed_test_tool.py");
  assert.equal(toolLayout("python", "conftest", "pkg").tool, "pkg/tool_conftest.py");
  assert.deepEqual(toolLayout("go", "getWeather"), {
    tool: "get_weather.go",
    test: "get_weather_test.go",
    stem: "get_weather",
    alsoFree: [],
  });
  // _test, _<GOOS> and _<GOARCH> suffixes would make it a test file or build it on one platform only.
  for (const [tool, file] of [
    ["speed_test", "speed_test_tool.go"],
    ["convert_js", "convert_js_tool.go"],
    ["to_windows", "to_windows_tool.go"],
    ["run_arm64", "run_arm64_tool.go"],
  ]) {
    assert.equal(toolLayout("go", tool!).tool, file);
  }
});
