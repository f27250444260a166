/** Big frames: a 15 MiB request, and a response over 512 KiB by file transport. */
import { FILE_TRANSPORT_THRESHOLD_BYTES, RpcError, Timeouts } from "../../protocol/index.js";
import { TIMED_OUT, within } from "../../host/index.js";
import { errorCode, frames, show } from "../context.js";
import { fail, pass, skip, type Check } from "../types.js";
import { PING } from "./lifecycle.js";

const LARGE_FRAME_BYTES = 15 * 1024 * 1024;
const LARGE_MS = 15_000;

export const largeFrameCheck: Check = {
  id: "transport.large-frame",
  description: "a 15 MiB request frame is read and answered, and the plugin keeps running",
  rule: "SPEC Transport constraint 5: a single line up to 16 MiB",
  needs: ["alive"],
  async run(ctx) {
    const session = ctx.session({ recordChars: 300 });
    const head = '{"jsonrpc":"2.0","id":"large-1","method":"executa.conformance/large","params":{"pad":"';
    const tail = '"}}';
    const pad = "x".repeat(LARGE_FRAME_BYTES - head.length - tail.length);
    const started = performance.now();
    let r;
    try {
      r = await within(session.callRaw(head + pad + tail, "large-1", "large"), LARGE_MS);
      if (r === TIMED_OUT) throw new Error(`no answer within ${LARGE_MS / 1000} s`);
    } catch (error) {
      const nulls = session.nullIdResponses[0];
      return fail(`the 15 MiB frame got no answer: ${(error as Error).message}${nulls ? `; it answered ${show(nulls)}` : ""}${frames(session, 4)}`);
    }
    const code = errorCode(r.frame);
    if (code === RpcError.InvalidRequest || code === RpcError.ParseError) return fail(`the 15 MiB frame was refused: ${show(r.frame.error)} (the limit is 16 MiB)`);
    try {
      await session.request(PING, undefined, Timeouts.healthMs);
    } catch (error) {
      return fail(`after the 15 MiB frame the plugin stopped answering: ${(error as Error).message}${frames(session, 4)}`);
    }
    return pass(`answered in ${Math.round(performance.now() - started)} ms`);
  },
};

export const fileTransportCheck: Check = {
  id: "transport.file",
  description: "a response over 512 KiB comes by file transport, the file holds the whole response, and nothing is left behind",
  rule: "SPEC File transport: write the complete response to a temp file, send {id, __file_transport: path}; the Agent reads and deletes it",
  needs: ["alive"],
  async run(ctx) {
    const session = ctx.session({ privateTmp: true, recordChars: 300 });
    const method = `executa.conformance/${"x".repeat(FILE_TRANSPORT_THRESHOLD_BYTES + 64 * 1024)}`;
    let r;
    try {
      r = await session.request(method, undefined, 10_000);
    } catch (error) {
      return fail(`a request with a 576 KiB method name got no answer: ${(error as Error).message}${frames(session, 4)}`);
    }
    await session.settled();
    if (!r.file) {
      const size = Buffer.byteLength(JSON.stringify(r.frame));
      return size > FILE_TRANSPORT_THRESHOLD_BYTES
        ? skip(`not exercised: the ${Math.round(size / 1024)} KiB answer came inline (the spec allows it; the runtime contract uses file transport above 512 KiB)`)
        : skip("not exercised: the plugin's answer to an unknown method does not echo the method name, so no answer over 512 KiB could be provoked");
    }
    const read = r.file;
    if (read.error) return fail(`the file transport pointer ${read.path} is unusable: ${read.error}`);
    if (read.frame && read.frame.id !== undefined && JSON.stringify(read.frame.id) !== JSON.stringify(r.frame.id)) {
      return fail(`the file holds a response with id ${show(read.frame.id)}, but the pointer says id ${show(r.frame.id)}`);
    }
    if (!read.frame || !("result" in read.frame || "error" in read.frame)) return fail(`the file does not hold a JSON-RPC response: ${show(read.frame)}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const left = session.tmpFiles();
    if (left.length) return fail(`after the host read and deleted ${read.path}, the plugin's temp folder still holds ${left.join(", ")}: every response file must be the one the pointer names, and nothing else may stay behind`);
    if (session.tmpDir && !read.path.startsWith(session.tmpDir)) return pass(`the file was written outside the temp folder (${read.path}); leftovers there could not be checked`);
    return pass(`${Math.round((read.bytes ?? 0) / 1024)} KiB by file transport`);
  },
};
