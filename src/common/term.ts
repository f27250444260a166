/** Terminal output: colour only on a TTY and never with NO_COLOR; a spinner for slow steps. */

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

/** Whether the command may ask questions: both ends are TTYs, CI is unset and --yes is absent. */
export function canPrompt(yes: boolean | undefined): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY) && !process.env.CI && !yes;
}

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/**
 * Runs `work` with a progress line on stderr when it lasts longer than a second (on a TTY only),
 * then prints `done` or the failure mark.
 */
export async function withSpinner<T>(label: string, work: () => Promise<T>, quiet = false): Promise<T> {
  const stream = process.stderr;
  let frame = 0;
  let shown = false;
  let timer: NodeJS.Timeout | undefined;
  const delay =
    !quiet && stream.isTTY
      ? setTimeout(() => {
          timer = setInterval(() => {
            shown = true;
            stream.write(`\r${color.cyan(FRAMES[frame++ % FRAMES.length]!)} ${label}`);
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
    if (!quiet) stream.write(`${color.green("✔")} ${label}\n`);
    return result;
  } catch (error) {
    stop();
    if (!quiet) stream.write(`${color.red("✖")} ${label}\n`);
    throw error;
  }
}
