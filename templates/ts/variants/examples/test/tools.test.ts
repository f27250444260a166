/** Unit tests of the three tools, with a fake context and a fake host. */
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { HostError, ToolError, type HostClient, type SampleRequest, type SampleResult, type ToolContext } from "../src/executa/index.js";
import { sign_message, summarize, text_stats } from "../src/tools.js";

function fakeContext(options: { credentials?: Record<string, string>; sample?: (req: SampleRequest) => Promise<SampleResult> } = {}): ToolContext {
  const unused = () => Promise.reject(new Error("not used in this test"));
  // Only what the tools use; any other host service fails the test.
  const host = { request: unused, sample: options.sample ?? unused } as Partial<HostClient> as HostClient;
  return {
    tool: "test",
    invokeId: "inv-1",
    deadlineMs: Date.now() + 60_000,
    credential: (name) => options.credentials?.[name],
    host,
    progress: () => {},
    log: () => {},
  };
}

describe("text_stats", () => {
  test("counts words, characters and the most frequent words", () => {
    const stats = text_stats({ text: "The cat saw the other cat. The end!" });
    assert.deepEqual(stats, {
      words: 8,
      characters: 35,
      distinct_words: 5,
      top: [
        { word: "the", count: 3 },
        { word: "cat", count: 2 },
        { word: "end", count: 1 },
      ],
      reading_minutes: 0.03,
    });
  });

  test("words are runs of Unicode letters, digits, apostrophes and hyphens; characters are code points", () => {
    const stats = text_stats({ text: "Ça va? l'été well-known 42 👋🏽 naïve", top: 10 });
    assert.deepEqual(
      stats.top.map((t) => t.word),
      ["42", "l'été", "naïve", "va", "well-known", "ça"],
    );
    assert.equal(stats.words, 6);
    assert.equal(stats.characters, [..."Ça va? l'été well-known 42 👋🏽 naïve"].length);
    assert.equal(stats.characters, 35); // the emoji and its skin-tone modifier are two code points
  });

  test("letter_case folds before counting, or preserves", () => {
    assert.deepEqual(text_stats({ text: "a A b", letter_case: "upper" }).top, [
      { word: "A", count: 2 },
      { word: "B", count: 1 },
    ]);
    assert.deepEqual(text_stats({ text: "a A b", letter_case: "preserve" }).top, [
      { word: "A", count: 1 },
      { word: "a", count: 1 },
      { word: "b", count: 1 },
    ]);
  });

  test("ties are broken alphabetically by the folded word", () => {
    assert.deepEqual(
      text_stats({ text: "pear apple fig apple pear", top: 3 }).top,
      [
        { word: "apple", count: 2 },
        { word: "pear", count: 2 },
        { word: "fig", count: 1 },
      ],
    );
  });

  test("ignore leaves words out after folding; unique counts distinct words", () => {
    const stats = text_stats({ text: "The the THE dog", ignore: ["THE"] });
    assert.equal(stats.words, 1);
    assert.deepEqual(stats.top, [{ word: "dog", count: 1 }]);
    assert.equal(text_stats({ text: "a a a b", unique: true }).words, 2);
    assert.equal(text_stats({ text: "a a a b", unique: false }).words, 4);
  });

  test("reading_minutes is words / words_per_minute rounded to 2 decimals; top 0 lists none", () => {
    const stats = text_stats({ text: "one two three", words_per_minute: 7, top: 0 });
    assert.equal(stats.reading_minutes, 0.43);
    assert.deepEqual(stats.top, []);
    assert.equal(text_stats({ text: "" }).reading_minutes, 0);
  });

  test("top < 0 and words_per_minute <= 0 are tool errors that give the range", () => {
    assert.throws(() => text_stats({ text: "x", top: -1 }), (err) => err instanceof ToolError && /0 or more/.test(err.message));
    assert.throws(
      () => text_stats({ text: "x", words_per_minute: 0 }),
      (err) => err instanceof ToolError && /greater than 0/.test(err.message),
    );
  });
});

describe("sign_message", () => {
  test("signs with HMAC-SHA256 of the SIGNING_SECRET credential", () => {
    const ctx = fakeContext({ credentials: { SIGNING_SECRET: "key" } });
    assert.deepEqual(sign_message("The quick brown fox jumps over the lazy dog", ctx), {
      algorithm: "HMAC-SHA256",
      signature: "f7bc83f430538424b13298e6aa6fb143ef4d59a14946175997479dbc2d1a3cd8",
    });
  });

  test("a missing or empty secret is a tool error that says how to configure it", () => {
    const message =
      "SIGNING_SECRET is not configured. Add it to this plugin's credentials in Anna, or export SIGNING_SECRET=... when running locally.";
    for (const credentials of [{}, { SIGNING_SECRET: "" }] as Record<string, string>[]) {
      assert.throws(() => sign_message("hi", fakeContext({ credentials })), new ToolError(message));
    }
  });
});

describe("summarize", () => {
  test("asks the host's model and returns its text and model", async () => {
    const requests: SampleRequest[] = [];
    const ctx = fakeContext({
      sample: async (req) => {
        requests.push(req);
        return { role: "assistant", content: { type: "text", text: "Short." }, model: "test-model", text: "Short.", structuredValid: false, downgraded: false };
      },
    });
    assert.deepEqual(await summarize({ text: "A long text.", max_words: 10 }, ctx), { summary: "Short.", model: "test-model" });
    assert.deepEqual(requests, [
      {
        messages: [
          { role: "user", content: { type: "text", text: "Summarize the following text in at most 10 words:\n\nA long text." } },
        ],
        maxTokens: 40,
        metadata: { tool: "summarize" },
      },
    ]);
  });

  test("maxTokens is max_words * 4, at least 16 and at most 8192; max_words < 1 is a tool error", async () => {
    const seen: (number | undefined)[] = [];
    const ctx = fakeContext({
      sample: async (req) => {
        seen.push(req.maxTokens);
        return { content: { type: "text", text: "" }, model: "m", text: "", structuredValid: false, downgraded: false };
      },
    });
    for (const max_words of [1, 50, 5000]) await summarize({ text: "t", max_words }, ctx);
    await summarize({ text: "t" }, ctx);
    assert.deepEqual(seen, [16, 200, 8192, 200]);
    await assert.rejects(summarize({ text: "t", max_words: 0 }, ctx), (err) => err instanceof ToolError);
  });

  test("a refusal is a tool error with the code, plus a hint for NOT_GRANTED", async () => {
    const refused = (code: number, message: string) => fakeContext({ sample: () => Promise.reject(new HostError(code, message)) });
    await assert.rejects(
      summarize({ text: "t" }, refused(-32001, "sampling is not granted")),
      new ToolError("The host refused the sampling request: [-32001] sampling is not granted Grant sampling to this plugin in Anna's settings."),
    );
    await assert.rejects(
      summarize({ text: "t" }, refused(-32009, "the user said no")),
      new ToolError("The host refused the sampling request: [-32009] the user said no"),
    );
  });
});
