/** JSON-RPC 2.0 frames as they travel, one per line. */
import type { Json } from "./manifest.js";

export type RpcId = string | number | null;

export interface RpcRequest {
  jsonrpc: "2.0";
  id?: RpcId;
  method: string;
  params?: Json;
}

export interface RpcErrorObject {
  code: number;
  message: string;
  data?: Json;
}

export interface RpcResponse {
  jsonrpc: "2.0";
  id: RpcId;
  result?: Json;
  error?: RpcErrorObject;
  __file_transport?: string;
}

export type FrameKind = "request" | "notification" | "response" | "invalid";

/** What a parsed frame is: a request (has method and id), a notification, a response, or neither. */
export function frameKind(frame: unknown): FrameKind {
  if (frame === null || typeof frame !== "object" || Array.isArray(frame)) return "invalid";
  const f = frame as Record<string, unknown>;
  if ("method" in f) return "id" in f ? "request" : "notification";
  if ("id" in f && ("result" in f || "error" in f || "__file_transport" in f)) return "response";
  return "invalid";
}

/** The `result` of an invoke: the InvokeResult envelope. */
export interface InvokeResult {
  success: boolean;
  data?: Json;
  error?: string;
  duration_ms?: number;
}
