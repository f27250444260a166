/**
 * Keeps stdout for protocol frames: the runtime takes the real `process.stdout.write`, and
 * everyone else's `console.log/info/debug` and `process.stdout.write` go to stderr.
 */

export function protectStdout(): (text: string) => boolean {
  const stdout = process.stdout;
  const realWrite = stdout.write.bind(stdout) as (text: string) => boolean;
  const stderr = process.stderr;
  stdout.write = ((...args: Parameters<typeof stderr.write>) => stderr.write(...args)) as typeof stdout.write;
  const toStderr = (...args: unknown[]) => console.error(...args);
  console.log = toStderr;
  console.info = toStderr;
  console.debug = toStderr;
  return (text: string) => realWrite(text);
}
