/** Terminal output: colour only on a TTY and never with NO_COLOR; a spinner (with what it is doing) for slow steps. */

export function useColor(stream: NodeJS.WriteStream = process.stderr): boolean {
  return Boolean(stream.isTTY) && !("NO_COLOR" in process.env) && process.env.TERM !== "dumb";
}

function paint(code: number, text: string, stream?: NodeJS.WriteStream): string {
  return useColor(stream) ? `\x1b[${code}m${text}\x1b[0m` : text;
}

export const color = {
  red: (t: string, s?: NodeJS.WriteStream) => paint(31, t, s),
  green: (t: string, s?: NodeJS.WriteStream) => paint(32, t, s),
  yellow: (t: string, s?: NodeJS.WriteStream) => paint(33, t, s),
  cyan: (t: string, s?: NodeJS.WriteStream) => paint(36, t, s),
  dim: (t: string, s?: NodeJS.WriteStream) => paint(2, t, s),
  bold: (t: string, s?: NodeJS.WriteStream) => paint(1, t, s),
};

const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

/**
 * Text a plugin (or any untrusted source) wrote, made safe for a terminal: control characters
 * (escape sequences, carriage returns, bells) and bidirectional overrides are shown as `\u001b`,
 * `\r`, `\u202e`..., so they cannot set the title, clear the screen or repaint a line. Newlines
 * and tabs stay, and JSON text stays valid JSON.
 */
export function printable(text: string): string {
  return text.replace(CONTROL, (c) => {
    if (c === "\r") return "\\r";
    return `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  });
}

/** Whether the command may ask questions: both ends are TTYs, CI is unset and --yes is absent. */
export function canPrompt(yes: boolean | undefined): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY) && !process.env.CI && !yes;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export type StepOutcome = { status: "ok" } | { status: "skipped" | "failed"; note?: string };

export interface SpinnerOptions<T> {
  /** No progress and no result line (for --json). */
  quiet?: boolean;
  /** How the finished work went: only "ok" earns a ✔. Default: "ok" when it did not throw. */
  outcome?: (result: T) => StepOutcome;
  /** What the work is doing now, shown after the label on every frame (e.g. "check 12/27: invoke.envelope (tool 40/200)"). */
  detail?: () => string;
}

/** The spinner's line: label and detail, cut to the terminal's width so that it never wraps (a wrapped line cannot be rewritten). */
export function progressLine(frame: string, label: string, detail: string, columns: number | undefined): string {
  const text = `${label}${detail ? `: ${printable(detail)}` : ""}`;
  const room = Math.max(10, (columns || 80) - 3);
  return `\r${color.cyan(frame)} ${text.length > room ? `${text.slice(0, room - 1)}…` : text}\x1b[K`;
}

/**
 * Runs `work` with a progress line on stderr when it lasts longer than a second (on a TTY only),
 * then one line: ✔ only for a step that succeeded, "-" and why for a skipped one, ✖ for a failure.
 */
export async function withSpinner<T>(
  label: string,
  work: () => Promise<T>,
  options: SpinnerOptions<T> = {},
): Promise<T> {
  const stream = process.stderr;
  const quiet = options.quiet ?? false;
  let frame = 0;
  let shown = false;
  let timer: NodeJS.Timeout | undefined;
  const delay =
    !quiet && stream.isTTY
      ? setTimeout(() => {
          timer = setInterval(() => {
            shown = true;
            stream.write(
              progressLine(FRAMES[frame++ % FRAMES.length]!, label, options.detail?.() ?? "", stream.columns),
            );
          }, 80);
        }, 1000)
      : undefined;
  const stop = () => {
    clearTimeout(delay);
    clearInterval(timer);
    if (shown) stream.write("\r\x1b[K");
  };
  try {
    const result = await work();
    stop();
    const outcome = options.outcome?.(result) ?? { status: "ok" };
    if (!quiet) {
      const note = outcome.status !== "ok" && outcome.note ? ` (${outcome.note})` : "";
      if (outcome.status === "ok") stream.write(`${color.green("✔")} ${label}\n`);
      else if (outcome.status === "skipped") stream.write(`${color.dim("-")} ${label}: skipped${note}\n`);
      else stream.write(`${color.red("✖")} ${label}${note}\n`);
    }
    return result;
  } catch (error) {
    stop();
    if (!quiet) stream.write(`${color.red("✖")} ${label}\n`);
    throw error;
  }
}
