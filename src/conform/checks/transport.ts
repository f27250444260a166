/** Big frames: a 15 MiB request, a response over 512 KiB (inline, as the platform reads it; file transport is read but warned), and the safety of every pointer. */
import { FILE_TRANSPORT_THRESHOLD_BYTES, RpcError } from "../../protocol/index.js";
import { describeExit, TIMED_OUT, within } from "../../host/index.js";
import { describeStray, errorCode, frames, show } from "../context.js";
import { Rule } from "../rules.js";
import { fail, pass, skip, warn, type Check } from "../types.js";
import { PING } from "./lifecycle.js";

const LARGE_FRAME_BYTES = 15 * 1024 * 1024;

export const largeFrameCheck: Check = {
  id: "transport.large-frame",
  description: "a 15 MiB request frame is read and answered, and the plugin keeps running",
  rule: Rule.largeFrame,
  needs: ["alive"],
  async run(ctx) {
    const session = ctx.session({ recordChars: 300 });
    const head = '{"jsonrpc":"2.0","id":"large-1","method":"executa.conformance/large","params":{"pad":"';
    const tail = '"}}';
    const pad = "x".repeat(LARGE_FRAME_BYTES - head.length - tail.length);
    const started = performance.now();
    let r;
    try {
      r = await within(session.callRaw(head + pad + tail, "large-1", "large"), ctx.waits.largeFrameMs);
      if (r === TIMED_OUT) throw new Error(`no answer within ${ctx.waits.largeFrameMs / 1000} s`);
    } catch (error) {
      const stray = session.strays[0];
      if (!session.alive)
        return fail(
          `the 15 MiB frame ended the plugin (${describeExit(session.exit)}) before it answered${frames(session, 4)}`,
          `${Rule.keepReading} ${Rule.frameSize}`,
        );
      if (stray?.kind === "null-id")
        return warn(
          `the 15 MiB frame was answered with id null: ${show(stray.frame, 200)} (the limit is 16 MiB)${frames(session, 4)}`,
          Rule.largeFrame,
        );
      if (stray) return fail(`the 15 MiB frame was answered ${describeStray(stray)}`, Rule.responseId);
      return fail(`the 15 MiB frame got no answer: ${(error as Error).message}${frames(session, 4)}`, Rule.reply);
    }
    const code = errorCode(r.frame);
    if (code === RpcError.InvalidRequest || code === RpcError.ParseError)
      return warn(`the 15 MiB frame was refused: ${show(r.frame.error)} (the limit is 16 MiB)`, Rule.largeFrame);
    try {
      await session.request(PING, undefined, ctx.waits.healthMs);
    } catch (error) {
      return fail(
        `after the 15 MiB frame the plugin stopped answering: ${(error as Error).message}${frames(session, 4)}`,
        session.alive ? Rule.reply : Rule.keepReading,
      );
    }
    return pass(`answered in ${Math.round(performance.now() - started)} ms`);
  },
};

export const fileTransportCheck: Check = {
  id: "transport.file",
  description:
    "a response over 512 KiB comes inline, as the platform reads it; one that comes by file transport must hold the whole response and leave nothing behind, and is warned (the platform's local-dev runtime cannot read __file_transport)",
  rule: Rule.fileTransport,
  needs: ["alive"],
  async run(ctx) {
    const session = ctx.session({ recordChars: 300 });
    const method = `executa.conformance/${"x".repeat(FILE_TRANSPORT_THRESHOLD_BYTES + 64 * 1024)}`;
    let r;
    try {
      r = await session.request(method, undefined, 10_000);
    } catch (error) {
      return fail(
        `a request with a 576 KiB method name got no answer: ${(error as Error).message}${frames(session, 4)}`,
        session.alive ? Rule.reply : Rule.keepReading,
      );
    }
    await session.settled();
    if (!r.file) {
      const size = Buffer.byteLength(JSON.stringify(r.frame));
      return size > FILE_TRANSPORT_THRESHOLD_BYTES
        ? pass(`the ${Math.round(size / 1024)} KiB answer came inline, as the platform reads it`)
        : skip(
            "not exercised: the plugin's answer to an unknown method does not echo the method name, so no answer over 512 KiB could be provoked",
          );
    }
    const read = r.file;
    if (read.error)
      return fail(
        `the file transport pointer ${read.path} is unusable: ${read.error}`,
        read.refused ? Rule.fileTransportSafety : Rule.fileTransport,
      );
    if (read.frame && read.frame.id !== undefined && JSON.stringify(read.frame.id) !== JSON.stringify(r.frame.id)) {
      return fail(
        `the file holds a response with id ${show(read.frame.id)}, but the pointer says id ${show(r.frame.id)}`,
        Rule.fileTransport,
      );
    }
    if (!read.frame || !("result" in read.frame || "error" in read.frame))
      return fail(`the file does not hold a JSON-RPC response: ${show(read.frame)}`, Rule.fileTransport);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const left = session.tmpFiles();
    if (left.length)
      return warn(
        `after the host read and deleted ${read.path}, the plugin's temp folder still holds ${left.join(", ")}: nobody deletes those; write the response straight into the file the pointer names`,
        Rule.leftovers,
      );
    return warn(
      `the ${Math.round((read.bytes ?? 0) / 1024)} KiB answer came by file transport, which the host read safely, but the platform's local-dev runtime cannot read __file_transport: answer inline (frames up to 16 MiB, invoke results up to 4 MiB)`,
      Rule.fileTransportPlatform,
    );
  },
};

export const FILE_SAFETY_CHECK_ID = "transport.file-safety";

export const fileSafetyCheck: Check = {
  id: FILE_SAFETY_CHECK_ID,
  description:
    "every file-transport pointer of every session answers a request the host is waiting for and names a safe file in the plugin's temp folder",
  rule: Rule.fileTransportSafety,
  needs: [],
  last: true,
  async run(ctx) {
    const refused: string[] = [];
    let honoured = 0;
    for (const { check, session } of ctx.shared.sessions) {
      for (const read of session.fileTransports) {
        if (read.refused) refused.push(`    [${check}] ${JSON.stringify(read.path)}: ${read.error}`);
        else honoured++;
      }
    }
    if (refused.length)
      return fail(
        `${refused.length} file-transport pointer(s) refused:\n${refused.slice(0, 6).join("\n")}`,
        Rule.fileTransportSafety,
      );
    return pass(honoured ? `${honoured} pointer(s), each safe` : "no file-transport pointers");
  },
};
