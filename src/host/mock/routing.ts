/**
 * Whether a reverse request may be served, in the host's order: protocol 2.0 negotiated, the
 * invoke it belongs to (the spec's invoke_id table), the manifest's host_capabilities, and the
 * user's grant (capabilities the mock host was told to refuse).
 */
import { capabilitiesForMethod, InvokeContextError, RpcError } from "../../protocol/index.js";
import { namespaceOf, RENAMED } from "./namespaces.js";
import { DEFAULT_SCOPE } from "./pages.js";
import type { ErrorBody, ReverseContext } from "./types.js";

/** Served (routed to an invoke), or refused (with the invoke, when routing got that far). */
export type Gate = { routedTo: string } | { error: ErrorBody; routedTo?: string };

const STORAGE_SCOPE_CAPABILITY = /^storage\.(user|app|tool)$/;

/** The refused capability that denies this request, if any. */
export function refusedBy(method: string, params: Record<string, unknown>, refused: ReadonlySet<string>): string | undefined {
  for (const capability of refused) {
    const scope = STORAGE_SCOPE_CAPABILITY.exec(capability)?.[1];
    if (scope !== undefined) {
      if ((method.startsWith("storage/") || method.startsWith("files/")) && (params.scope ?? DEFAULT_SCOPE) === scope) return capability;
    } else if ((capabilitiesForMethod(method) as string[]).includes(capability)) {
      return capability;
    }
  }
  return undefined;
}

export function gate(method: string, params: Record<string, unknown>, invokeId: string | undefined, ctx: ReverseContext, refused: ReadonlySet<string>): Gate {
  const ns = namespaceOf(method);
  if (!ctx.negotiatedV2) {
    const message = `${method}: protocol 2.0 was not negotiated, so reverse requests are not allowed (answer "2.0" to an initialize that offers it)`;
    if (!ns) return { error: { code: RpcError.MethodNotFound, message } };
    return { error: { code: ns.notNegotiated, message: `NOT_NEGOTIATED: ${message}`, ...(ns.notNegotiatedName && { data: { errorCode: ns.notNegotiatedName } }) } };
  }
  let routedTo: string;
  if (invokeId) {
    if (!ctx.activeInvokes.has(invokeId)) {
      return { error: { code: RpcError.InvalidParams, message: `context.invoke_id ${JSON.stringify(invokeId)} is not an active invoke`, data: { errorCode: InvokeContextError.UNKNOWN_INVOKE_CONTEXT } } };
    }
    routedTo = invokeId;
  } else if (ctx.activeInvokes.size === 1) {
    routedTo = [...ctx.activeInvokes.keys()][0]!;
  } else if (ctx.activeInvokes.size > 1) {
    return { error: { code: RpcError.InvalidParams, message: `params.context.invoke_id is missing and ${ctx.activeInvokes.size} invokes are active; the host never guesses`, data: { errorCode: InvokeContextError.MISSING_INVOKE_CONTEXT } } };
  } else {
    return { error: { code: RpcError.InvalidParams, message: "no invoke is active, so a reverse request has nothing to run on behalf of", data: { errorCode: InvokeContextError.UNKNOWN_INVOKE_CONTEXT } } };
  }
  if (!ns) return { routedTo };
  const needs = capabilitiesForMethod(method);
  if (ctx.hostCapabilities && !needs.some((c) => ctx.hostCapabilities!.includes(c))) {
    const message = `${method} needs host_capabilities ${needs.slice(0, 2).join(" or ")} in the manifest`;
    return { routedTo, error: { code: ns.missingCapability, message: `${ns.missingCapability === ns.notNegotiated ? "NOT_NEGOTIATED" : "NOT_GRANTED"}: ${message}` } };
  }
  const denied = refusedBy(method, params, refused);
  if (denied) {
    return { routedTo, error: { code: ns.notGranted, message: `NOT_GRANTED: the user has not granted ${denied} to this plugin (the mock host was told to refuse it)`, data: { errorCode: denied.startsWith("storage.") ? "forbidden_scope" : "not_granted" } } };
  }
  return { routedTo };
}

/** The answer to a method the host does not know (after rules had their chance). */
export function unknownMethod(method: string): ErrorBody {
  const renamed = Object.hasOwn(RENAMED, method) ? RENAMED[method] : undefined;
  return { code: RpcError.MethodNotFound, message: `the host does not implement ${method}${renamed ? `; it is the old name of ${renamed}` : ""}` };
}
