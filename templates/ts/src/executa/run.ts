/** `run`: wires stdin -> framing -> dispatcher -> writer -> stdout, and the stop rules. */
import { Dispatcher } from "./dispatcher.js";
import { decodeFrame, LineSplitter } from "./framing.js";
import { HostChannel } from "./host.js";
import { protectStdout } from "./stdio.js";
import { Stopper } from "./stopping.js";
import type { Bindings, Manifest } from "./types.js";
import { FrameWriter } from "./writer.js";

export interface RunOptions {
  /** The `describe` result: `manifest.json`, as data. */
  manifest: Manifest;
  /** Tool name -> loader, from `src/executa.bindings.ts`. */
  bindings: Bindings;
}

const log = (message: string) => {
  process.stderr.write(message + "\n");
};

/** Serves the manifest's tools over stdio until stdin closes, `shutdown` or SIGTERM; then exits 0. */
export function run({ manifest, bindings }: RunOptions): void {
  const writer = new FrameWriter(protectStdout(), log);
  const stopper = new Stopper(log);
  const channel = new HostChannel(manifest, writer, log);
  const dispatcher = new Dispatcher(manifest, bindings, writer, channel, stopper, log);

  const handleLine = (bytes: Buffer) => {
    const decoded = decodeFrame(bytes);
    if ("error" in decoded) dispatcher.parseError(decoded.error);
    else if ("value" in decoded) dispatcher.frame(decoded.value);
  };
  const splitter = new LineSplitter({
    line: handleLine,
    oversize: () => writer.error(null, -32600, "Frame exceeds 16 MiB"),
  });

  stopper.handleSignals();
  const stdin = process.stdin;
  stdin.on("data", (chunk: Buffer) => splitter.push(chunk));
  stdin.on("end", () => {
    splitter.end();
    channel.close();
    stopper.begin("stdin closed");
  });
  stdin.on("error", (err) => {
    log(`executa: stdin: ${err.message}`);
    stopper.begin("stdin error");
  });
  process.stdout.on("error", (err) => {
    // The host went away: nothing more can be answered.
    log(`executa: stdout: ${err.message}`);
    process.exit(0);
  });
}
