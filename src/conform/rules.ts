/**
 * The rules the checks quote, each once. A `fail` quotes a MUST (of the protocol spec, or of
 * JSON-RPC 2.0, which the spec is built on); a `warn` quotes the advice (TIP, IMPORTANT note, code
 * table, the long reference) or names the heuristic.
 */
export const Rule = {
  // MUSTs
  reply:
    'JSON-RPC 2.0 §4: "When a rpc call is made, the Server MUST reply with a Response, except for in the case of Notifications."',
  noNotificationReply:
    'JSON-RPC 2.0 §4.1: "The Server MUST NOT reply to a Notification, including those that are within a batch request."',
  responseId:
    'JSON-RPC 2.0 §5: "id: This member is REQUIRED. It MUST be the same as the value of the id member in the Request Object. If there was an error in detecting the id in the Request object (e.g. Parse error/Invalid Request), it MUST be Null."',
  keepReading:
    'SPEC Transport 6: "It MUST keep reading stdin in a loop and only exit on stdin EOF (the Agent closes stdin to request shutdown) or on an explicit signal. A process that exits after sending a single response is a protocol violation."',
  stdoutFrames:
    'SPEC Transport 1 and 3: "stdout is for protocol responses only. Each line must be one JSON object." "One message per line, terminated by \\n."',
  frameSize: 'SPEC Transport 5: "Single-line per frame ≤ 16 MiB" (and Transport 1: each line must be one JSON object).',
  describeTimeout:
    'SPEC Lifecycle 2 and Default timeouts: the Agent "immediately sends describe and waits up to 5 s"; describe 5 s, "not configurable".',
  manifestFields:
    "SPEC Manifest fields, Tool definition and Parameter schema: name, version (SemVer), description and at least one tool are required; each tool needs a unique name and a description; each parameter a name and one of the supported types.",
  healthStatus: 'SPEC health: "`status` must be one of `ready`, `error`, `initializing`."',
  healthTimeout: 'SPEC Default timeouts: health 3 s, "not configurable".',
  modulesResolve:
    "SPEC invoke: a listed tool must run when invoked with valid arguments; a module or library it imports that cannot be loaded (missing from the environment or the artifact) means it never can.",
  invokeResult:
    'SPEC invoke: "The Agent decodes `result` as {success, data, error, duration_ms}" (the host defaults success to false).',
  invokeIdEcho:
    'SPEC Reverse-RPC correlation: "the plugin must echo it back in the reverse-RPC params"; "Plugins that serve concurrent tools.invoke calls must propagate context.invoke_id".',
  fileTransport:
    'SPEC File transport: "write the full JSON-RPC response to a temporary file and send a pointer instead"; "The Agent reads the file, decodes the response inside it, then deletes the file."',
  fileTransportSafety:
    "Issue 8 §1, the host's rule for an untrusted plugin: a pointer is honoured only for an id the host is waiting for, and only for a regular file directly inside the temp folder the plugin was started with, owned by the user, named executa-*, at most 64 MiB; any other pointer is a protocol failure and its file is left alone.",
  declaredTool:
    'SPEC invoke: "Invoke a tool. Note the param shape uses `tool`, not `name`." A tool the manifest declares is called as params.tool with its name; answering it "unknown tool" (or -32601) means no host can call it.',
  // Anna's own host (anna-app-runtime-local, the production agent): what the platform does, whatever the prose says
  noInitialize:
    "Anna's local-dev runtime (anna-app-runtime-local executa.py) never sends initialize: it spawns the plugin, sends invoke with params.context.invoke_id and answers reverse requests. A plugin refuses host services only when an initialize offered another protocol version (docs/runtime-contract.md; the official SDKs behave so).",
  resultLimit:
    "Anna's agent and its local-dev runtime carry an invoke response frame of at most 4 MiB (4,194,304 bytes without the newline); a larger one reaches the caller as RESULT_TOO_LARGE. Return a file reference instead: host/uploadFile (ctx.host.upload) or APS files (ctx.host.files.upload).",
  fileTransportPlatform:
    'Anna\'s local-dev runtime cannot read __file_transport (the tool fails with "tool returned failure (keys=[])"); the platform carries results inline up to 4 MiB, and a file reference (host/uploadFile or APS files) beyond.',
  progress:
    'executa/progress (docs/runtime-contract.md; the platform\'s relay): a notification {context: {invoke_id}, type: "progress" | "tool_update", data: {...}} sent while its invoke runs; the platform drops one for an unknown or finished invoke and replaces data that is not an object with {}.',
  // Advice and heuristics
  errorCodes:
    "SPEC JSON-RPC errors (a code table, not a MUST): -32700 parse error, -32600 invalid request, -32601 method / tool not found, -32602 invalid params, -32603 internal error.",
  errorFrameTip:
    'SPEC TIP: "Use result.success = false for expected failures ... Use the JSON-RPC error frame for programmer errors ("unknown tool", "missing argument")."',
  sigterm:
    'SPEC Lifecycle (IMPORTANT note, advice): "Handle SIGTERM cleanly. Flush buffers, close file handles. Exit non-zero only if you actually crashed."',
  eofExit:
    'SPEC Transport 6: "only exit on stdin EOF (the Agent closes stdin to request shutdown)"; the Agent waits 5 s before it kills, and expects a clean exit.',
  manifestName:
    "Long reference §4.1 and §12.5: since June 2026 real plugins omit the manifest name; the host identifies a plugin by its tool_id (a warning).",
  manifestAdvice: "The manifest validator's advice beyond the spec's required fields (long reference §4 and §19).",
  versionNegotiation:
    "SPEC Protocol v2 and long reference §3.1: a plugin answers the version the host offered; a v1 host offers only 1.1.",
  capabilityMatrix:
    "Long reference §8: client_capabilities answer the manifest's host_capabilities; reverse requests need protocol 2.0 and the capability.",
  credentials:
    "SPEC invoke: params.context.credentials is injected by the Agent; the environment is only a local-development fallback (long reference §11).",
  largeFrame: "SPEC Transport 5: frames up to 16 MiB (an inline host/uploadFile frame is about 10.7 MiB).",
  leftovers:
    "SPEC File transport: the response goes in one temporary file that the Agent deletes; a file left beside it is never cleaned up (advice).",
  batches:
    "JSON-RPC 2.0 batches: the spec is silent; -32600 for the whole line and an answer per element are both right.",
  orphans:
    "Process hygiene (no MUST): a child that keeps the plugin's stdout open outlives the plugin; the host ends the process group.",
} as const;
