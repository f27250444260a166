/**
 * What Anna's own host does that the protocol text does not say: it never sends initialize, it
 * carries invoke results up to 4 MiB, and it relays executa/progress for running invokes only.
 */
import { HOST_CAPABILITIES, isHostCapability, MAX_RESULT_BYTES } from "../../protocol/index.js";
import type { Response, Session } from "../../host/index.js";
import { validArguments } from "../args.js";
import { frames, show } from "../context.js";
import type { CheckContext } from "../context.js";
import { Rule } from "../rules.js";
import { Findings, skip, type Check } from "../types.js";

type Tool = CheckContext["tools"][number];

const SHOWN_PROBLEMS = 6;
const kib = (bytes: number) => `${Math.round(bytes / 1024)} KiB`;
const succeeded = (r: Response) => (r.frame.result as { success?: unknown } | undefined)?.success === true;
const answerOf = (r: Response) => show("error" in r.frame ? { error: r.frame.error } : r.frame.result, 240);

/** One invoke of `tool` with valid arguments: its answer (or why there was none) and the reverse requests it made. */
async function tryTool(
  ctx: CheckContext,
  session: Session,
  tool: Tool,
): Promise<{ answer: Response | Error; methods: string[] }> {
  const before = session.mockHost.log.length;
  const answer = await session
    .invoke(tool.name, validArguments(tool), { timeoutMs: ctx.toolTimeoutMs(tool), credentials: ctx.credentials() })
    .catch((e: Error) => e);
  return { answer, methods: [...new Set(session.mockHost.log.slice(before).map((r) => r.method))] };
}

export const noInitializeCheck: Check = {
  id: "reverse.no-initialize",
  description:
    "under a host that sends no initialize (Anna's local-dev runtime), every tool that uses a host service after a 2.0 initialize still sends its reverse requests and succeeds with the answers (each tool is invoked once on a 2.0 session to find the service users, then once on a fresh session that got neither initialize nor describe)",
  rule: Rule.noInitialize,
  needs: ["alive", "tools"],
  async run(ctx) {
    const declared = Array.isArray(ctx.manifest?.host_capabilities) ? ctx.manifest!.host_capabilities! : [];
    if (!declared.some((c) => isHostCapability(c) && HOST_CAPABILITIES[c].methods.length > 0))
      return skip("the manifest declares no host capability with a wire method, so no tool uses a host service");
    const v2 = await ctx.invokingSession();
    if (!v2.negotiatedV2)
      return skip("the plugin does not negotiate protocol 2.0, so it makes no reverse requests to compare");
    const users: { tool: Tool; methods: string[]; succeeded: boolean }[] = [];
    for (const tool of ctx.eachTool()) {
      const { answer, methods } = await tryTool(ctx, v2, tool);
      if (methods.length) users.push({ tool, methods, succeeded: !(answer instanceof Error) && succeeded(answer) });
    }
    if (!users.length)
      return skip("no tool made a reverse request when invoked with valid arguments after a 2.0 initialize");
    const bare = ctx.session();
    const findings = new Findings();
    for (const user of users) {
      const { answer, methods } = await tryTool(ctx, bare, user.tool);
      const name = user.tool.name;
      if (answer instanceof Error)
        findings.fail(
          `${name}: ${answer.message} under a host that sent no initialize${frames(bare, 6)}`,
          Rule.noInitialize,
        );
      else if (!methods.length)
        findings.fail(
          `${name} sends ${user.methods.join(", ")} after a 2.0 initialize, but nothing under a host that sent none; it answered ${answerOf(answer)}: refuse host services only when an initialize offered another protocol version`,
          Rule.noInitialize,
        );
      else if (user.succeeded && !succeeded(answer))
        findings.fail(
          `${name} sent ${methods.join(", ")} under a host that sent no initialize, but did not succeed with the answers: ${answerOf(answer)}${frames(bare, 6)}`,
          Rule.noInitialize,
        );
    }
    return findings.outcome(
      users.map((u) => `${u.tool.name} (${u.methods.join(", ")})`).join(", ") + " served without initialize",
    );
  },
};

export const resultSizeCheck: Check = {
  id: "invoke.result-size",
  description: `each tool invoked with valid arguments answers inline within the platform's ${MAX_RESULT_BYTES / 1024 / 1024} MiB result limit (over it, the platform answers RESULT_TOO_LARGE); an answer by file transport is read but warned, since the platform's local-dev runtime cannot read it`,
  rule: Rule.resultLimit,
  needs: ["alive", "tools"],
  async run(ctx) {
    const session = ctx.session({ recordChars: 300 });
    const findings = new Findings();
    let largest = 0;
    for (const tool of ctx.eachTool()) {
      const { answer } = await tryTool(ctx, session, tool);
      if (answer instanceof Error) continue; // an invoke that is not answered is the other checks' business
      if (answer.tooLarge) {
        findings.fail(
          `${tool.name} answered a ${answer.tooLarge.bytes}-byte response (${kib(answer.tooLarge.bytes)}), over the platform's limit of ${MAX_RESULT_BYTES} bytes: the platform answers the caller {success: false, error: "result too large: ...", data: {errorCode: "RESULT_TOO_LARGE"}}. Upload the data (ctx.host.upload / host/uploadFile, or APS files with ctx.host.files.upload) and return a reference to it`,
          Rule.resultLimit,
        );
        continue;
      }
      const bytes = answer.file?.bytes ?? Buffer.byteLength(JSON.stringify(answer.frame));
      largest = Math.max(largest, bytes);
      if (answer.file && !answer.file.error) {
        const over =
          bytes > MAX_RESULT_BYTES
            ? `, and at ${kib(bytes)} it is over the platform's 4 MiB result limit too (RESULT_TOO_LARGE): return a file reference (host/uploadFile or APS files)`
            : "; answer inline (up to 4 MiB)";
        findings.warn(
          `${tool.name} answered by file transport (${kib(bytes)}): the platform's local-dev runtime cannot read __file_transport${over}`,
          Rule.fileTransportPlatform,
        );
      }
    }
    return findings.outcome(`every answer inline; the largest ${kib(largest)}`);
  },
};

export const progressCheck: Check = {
  id: "invoke.progress",
  description:
    'every executa/progress notification of every session names a running invoke in context.invoke_id, with type "progress" or "tool_update" and an object as data',
  rule: Rule.progress,
  needs: [],
  last: true,
  async run(ctx) {
    const findings = new Findings();
    let count = 0;
    let problems = 0;
    for (const { check, session } of ctx.shared.sessions) {
      count += session.progressCount;
      for (const event of session.progress) {
        if (!event.problem || ++problems > SHOWN_PROBLEMS) continue;
        findings.warn(
          `[${check}] ${show({ invoke_id: event.invokeId, type: event.type, data: event.data }, 160)}: ${event.problem}`,
          Rule.progress,
        );
      }
    }
    // Like transport.file-safety: nothing sent, nothing wrong (a template without progress passes).
    if (count === 0) return findings.outcome("no executa/progress notifications");
    const more =
      problems > SHOWN_PROBLEMS ? `\n  (${problems - SHOWN_PROBLEMS} more notification(s) with problems)` : "";
    return findings.outcome(`${count} notification(s), each for a running invoke`, more);
  },
};
