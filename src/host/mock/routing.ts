/**
 * Whether a reverse request may be served, in the host's order: protocol 2.0 (negotiated, or no
 * initialize sent at all, as Anna's local-dev runtime does), the
 * invoke it belongs to (the spec's invoke_id table), the manifest's host_capabilities, and the
 * user's grant (capabilities the mock host was told to refuse).
 */
import { capabilitiesForMethod, InvokeContextError, RpcError } from "../../protocol/index.js";
import { namespaceOf, RENAMED } from "./namespaces.js";
import { DEFAULT_SCOPE } from "./pages.js";
import type { ErrorBody, ReverseContext } from "./types.js";

/** Served (routed to an invoke), or refused (with the invoke, when routing got that far). */
export type Gate = { routedTo: string } | { error: ErrorBody; routedTo?: string };

/** `aps.scope.<scope>.<read|write>`: another scope's keys, read or written. */
const APS_SCOPE_CAPABILITY = /^aps\.scope\.(user|app|tool)\.(read|write)$/;
const READS = new Set(["storage/get", "storage/list"]);

/**
 * The refused capability that denies this request, if any. Refusing `aps.scope.user.write`
 * denies writes (storage/set, storage/delete) in scope user only; any other capability denies
 * every method it unlocks.
 */
export function refusedBy(
  method: string,
  params: Record<string, unknown>,
  refused: ReadonlySet<string>,
): string | undefined {
  for (const capability of refused) {
    const scoped = APS_SCOPE_CAPABILITY.exec(capability);
    if (scoped) {
      const [, scope, access] = scoped;
      if (
        method.startsWith("storage/") &&
        (params.scope ?? DEFAULT_SCOPE) === scope &&
        (access === "read") === READS.has(method)
      )
        return capability;
    } else if ((capabilitiesForMethod(method) as string[]).includes(capability)) {
      return capability;
    }
  }
  return undefined;
}

export function gate(
  method: string,
  params: Record<string, unknown>,
  invokeId: string | undefined,
  ctx: ReverseContext,
  refused: ReadonlySet<string>,
): Gate {
  const ns = namespaceOf(method);
  if (!ctx.negotiatedV2) {
    const ended =
      ctx.protocolVersion === undefined ? "" : ` (the initialize ended on ${JSON.stringify(ctx.protocolVersion)})`;
    const message = `${method}: protocol 2.0 was not negotiated${ended}, so reverse requests are not allowed (answer "2.0" to an initialize that offers it; a host that sends no initialize serves them)`;
    if (!ns) return { error: { code: RpcError.MethodNotFound, message } };
    return {
      error: {
        code: ns.notNegotiated,
        message: `NOT_NEGOTIATED: ${message}`,
        ...(ns.notNegotiatedName && { data: { errorCode: ns.notNegotiatedName } }),
      },
    };
  }
  let routedTo: string;
  if (invokeId) {
    if (!ctx.activeInvokes.has(invokeId)) {
      return {
        error: {
          code: RpcError.InvalidParams,
          message: `context.invoke_id ${JSON.stringify(invokeId)} is not an active invoke`,
          data: { errorCode: InvokeContextError.UNKNOWN_INVOKE_CONTEXT },
        },
      };
    }
    routedTo = invokeId;
  } else if (ctx.activeInvokes.size === 1) {
    routedTo = [...ctx.activeInvokes.keys()][0]!;
  } else if (ctx.activeInvokes.size > 1) {
    return {
      error: {
        code: RpcError.InvalidParams,
        message: `params.context.invoke_id is missing and ${ctx.activeInvokes.size} invokes are active; the host never guesses`,
        data: { errorCode: InvokeContextError.MISSING_INVOKE_CONTEXT },
      },
    };
  } else {
    return {
      error: {
        code: RpcError.InvalidParams,
        message: "no invoke is active, so a reverse request has nothing to run on behalf of",
        data: { errorCode: InvokeContextError.UNKNOWN_INVOKE_CONTEXT },
      },
    };
  }
  if (!ns) return { routedTo };
  const needs = capabilitiesForMethod(method);
  if (ctx.hostCapabilities && !needs.some((c) => ctx.hostCapabilities!.includes(c))) {
    const message = `${method} needs host_capabilities ${needs.slice(0, 2).join(" or ")} in the manifest`;
    const prefix = ns.deniedName
      ? "PERMISSION_DENIED"
      : ns.missingCapability === ns.notNegotiated
        ? "NOT_NEGOTIATED"
        : "NOT_GRANTED";
    return {
      routedTo,
      error: {
        code: ns.missingCapability,
        message: `${prefix}: ${message}`,
        ...(ns.deniedName && { data: { errorCode: ns.deniedName } }),
      },
    };
  }
  const denied = refusedBy(method, params, refused);
  if (denied) {
    const errorCode = ns.deniedName ?? (APS_SCOPE_CAPABILITY.test(denied) ? "forbidden_scope" : "not_granted");
    return {
      routedTo,
      error: {
        code: ns.notGranted,
        message: `NOT_GRANTED: the user has not granted ${denied} to this plugin (the mock host was told to refuse it)`,
        data: { errorCode },
      },
    };
  }
  return { routedTo };
}

/** The answer to a method the host does not know (after rules had their chance). */
export function unknownMethod(method: string): ErrorBody {
  const renamed = Object.hasOwn(RENAMED, method) ? RENAMED[method] : undefined;
  return {
    code: RpcError.MethodNotFound,
    message: `the host does not implement ${method}${renamed ? `; it is the old name of ${renamed}` : ""}`,
  };
}
