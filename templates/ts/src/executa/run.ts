/** `run`: wires stdin -> framing -> dispatcher -> writer -> stdout, backpressure, and the stop rules. */
import { Dispatcher } from "./dispatcher.js";
import { RpcCode } from "./errors.js";
import { decodeFrame, LineSplitter } from "./framing.js";
import { HostChannel } from "./host.js";
import { protectStdout } from "./stdio.js";
import { Stopper } from "./stopping.js";
import { TurnQueue } from "./turns.js";
import type { Bindings, Manifest } from "./types.js";
import { FrameWriter } from "./writer.js";

export interface RunOptions {
  /** The `describe` result: `manifest.json`, as data. */
  manifest: Manifest;
  /** Tool name -> loader, from `src/executa.bindings.ts`. */
  bindings: Bindings;
}

/** While more than this many bytes of answers wait to be written, no new frame is taken from stdin. */
export const MAX_PENDING_OUTPUT_BYTES = 4 * 1024 * 1024;

const log = (message: string) => {
  process.stderr.write(message + "\n");
};

/** Serves the manifest's tools over stdio until stdin closes, `shutdown` or a signal; then exits 0. */
export function run({ manifest, bindings }: RunOptions): void {
  const stdout = process.stdout;
  const writer = new FrameWriter(protectStdout(), log);
  const stopper = new Stopper(log);
  const channel = new HostChannel(manifest, writer, log);
  const backlogged = () => stdout.writableLength > MAX_PENDING_OUTPUT_BYTES;
  const afterImport = new TurnQueue(backlogged);
  const dispatcher = new Dispatcher(manifest, bindings, writer, channel, stopper, log, afterImport);
  const stdin = process.stdin;
  // One line per turn of the event loop: a tool that answers at once has written its answer
  // before the next line is read, so the backlog below counts it.
  let handedOut = false;
  let yielding = false;

  const splitter = new LineSplitter({
    line: (bytes) => {
      handedOut = true;
      const decoded = decodeFrame(bytes);
      if ("parseError" in decoded) dispatcher.parseError(decoded.parseError);
      else if ("tooDeep" in decoded) dispatcher.tooDeep(decoded.id, decoded.response);
      else if ("value" in decoded) dispatcher.frame(decoded.value);
    },
    oversize: () => writer.error(null, RpcCode.InvalidRequest, "Frame exceeds 16 MiB"),
    // Backpressure: a host that stops reading stdout stops being read.
    blocked: () => {
      if (backlogged()) {
        stdin.pause();
        return true;
      }
      if (yielding) return true;
      if (!handedOut) return false;
      handedOut = false;
      yielding = true;
      setImmediate(() => {
        yielding = false;
        splitter.resume();
      });
      return true;
    },
    ended: () => {
      channel.close(); // the host can answer nothing any more
      stopper.begin("stdin closed");
    },
  });
  stdout.on("drain", () => {
    splitter.resume();
    afterImport.resume();
    if (!backlogged()) stdin.resume();
  });

  stopper.handleSignals();
  stdin.on("data", (chunk: Buffer) => {
    handedOut = false; // a new turn of the event loop
    splitter.push(chunk);
  });
  stdin.on("end", () => splitter.end());
  stdin.on("error", (err) => {
    log(`executa: stdin: ${err.message}`);
    stopper.begin("stdin error");
  });
  stdout.on("error", (err) => {
    // The host went away: nothing more can be answered.
    log(`executa: stdout: ${err.message}`);
    process.exit(0);
  });
}
