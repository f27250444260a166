/**
 * The mock host: answers a plugin's reverse requests for every service of the long reference §7,
 * deterministic and offline. It enforces protocol 2.0, the invoke_id routing rules of the spec,
 * the manifest's host_capabilities and the simulated user's grants, validates each request as the
 * host does, consults the mock rules first, and records every request as it arrives and as it is
 * answered. Whoever creates one closes it (its local HTTP server).
 */
import { join } from "node:path";
import { RpcError } from "../../protocol/index.js";
import { AgentService } from "./agent.js";
import { BlobStore } from "./blobs.js";
import { ruleAnswer, type Call, type HostEnv } from "./call.js";
import { handleEmbeddings } from "./embeddings.js";
import { FileStore } from "./file-store.js";
import { FilesService } from "./files.js";
import { IdSource } from "./ids.js";
import { ImageService } from "./image.js";
import { KvStore } from "./kv.js";
import { namespaceOf } from "./namespaces.js";
import { compact, obj, Params, Refusal } from "./params.js";
import { gate, unknownMethod } from "./routing.js";
import type { MockRuleSet, UnusedRule } from "./rules.js";
import { SamplingService } from "./sampling.js";
import { MockServer } from "./server.js";
import { StorageService } from "./storage.js";
import { swapUrlBase, TRANSCRIPT_URL_BASE } from "./transcript-urls.js";
import type {
  Answer,
  ErrorBody,
  MockHostOptions,
  ReverseContext,
  ReverseObserver,
  ReverseRecord,
  SamplingMode,
} from "./types.js";
import { UploadService } from "./upload.js";
import { handleWeb } from "./web.js";

/** The clock of a mock host whose answers are recorded or replayed (`executa dev --record`, `executa test --fixtures`): 2026-01-01T00:00:00Z, standing still. */
const REPLAY_CLOCK = () => Date.UTC(2026, 0, 1);
const REPLAY_SEED = "executa-replay";

/**
 * Options for a mock host whose answers are recorded or replayed: the same requests get the same
 * answers every run (a clock standing still, ids from a fixed seed). Its URLs' base still differs;
 * a transcript writes it as TRANSCRIPT_URL_BASE (`toTranscript`, `fromTranscript`).
 */
export function replayable(options: MockHostOptions = {}): MockHostOptions {
  return { clock: REPLAY_CLOCK, seed: REPLAY_SEED, ...options };
}

export const DEFAULT_CANNED_TEXT = "This is a canned reply from the executa mock host.";
/** The most bytes of files/* kept in a storage folder. */
const DISK_QUOTA_BYTES = 1024 ** 3;

export class MockHost {
  /** Every reverse request, oldest first (at most `maxRecords`; `dropped` counts the ones let go). */
  readonly log: ReverseRecord[] = [];
  dropped = 0;
  /** Key-value storage, browsable and editable from outside (list/get/set/delete per scope). */
  readonly kv: KvStore;
  /** files/* objects, browsable from outside (list, read, write, delete). */
  readonly files: FileStore;
  private readonly refused: Set<string>;
  private samplingMode: SamplingMode;
  private rulesInUse: MockRuleSet | undefined;
  private readonly observers = new Set<ReverseObserver>();
  /** Every id this host makes, invoke ids included (the session asks for them). */
  readonly ids: IdSource;
  private readonly started = performance.now();
  private readonly server: MockServer;
  private readonly services: {
    sampling: SamplingService;
    agent: AgentService;
    storage: StorageService;
    files: FilesService;
    upload: UploadService;
    image: ImageService;
  };
  private seq = 0;

  constructor(private readonly options: MockHostOptions = {}) {
    const clock = options.clock ?? Date.now;
    this.refused = new Set(options.refuse ?? []);
    this.samplingMode = options.sampling ?? { kind: "canned", text: DEFAULT_CANNED_TEXT };
    this.rulesInUse = options.rules;
    this.ids = new IdSource(options.seed);
    this.server = new MockServer(clock, this.ids);
    const quota = options.memoryQuotaBytes ?? 256 * 1024 * 1024;
    const dir = options.storageDir;
    const persistent = new BlobStore(dir && join(dir, "blobs"), dir ? DISK_QUOTA_BYTES : quota);
    const transient = new BlobStore(undefined, quota);
    this.kv = new KvStore(dir && join(dir, "kv"), clock);
    this.files = new FileStore(dir && join(dir, "files.json"), persistent);
    const env: HostEnv = {
      options,
      clock,
      sampling: () => this.samplingMode,
      server: this.server,
      persistent,
      transient,
      nextId: (kind) => this.ids.next(kind),
    };
    this.services = {
      sampling: new SamplingService(env),
      agent: new AgentService(env),
      storage: new StorageService(this.kv, this.files),
      files: new FilesService(env, this.files, persistent),
      upload: new UploadService(env, transient),
      image: new ImageService(env, transient),
    };
  }

  /** How sampling, agent/complete and agent runs are answered; the web workbench switches it live. */
  get sampling(): SamplingMode {
    return this.samplingMode;
  }

  set sampling(mode: SamplingMode) {
    this.samplingMode = mode;
  }

  /** The rules consulted first for every request (from --mock, --sampling rules:); the web workbench replaces them live. */
  get ruleSet(): MockRuleSet | undefined {
    return this.rulesInUse;
  }

  set ruleSet(rules: MockRuleSet | undefined) {
    this.rulesInUse = rules;
  }

  /** Simulates a user who did not grant (or, with `refused` false, granted again) a capability. */
  refuse(capability: string, refused = true): void {
    if (refused) this.refused.add(capability);
    else this.refused.delete(capability);
  }

  get refusedCapabilities(): string[] {
    return [...this.refused];
  }

  /** Calls `observer` for every request as it arrives and as it is answered; returns the unsubscribe. */
  observe(observer: ReverseObserver): () => void {
    this.observers.add(observer);
    return () => this.observers.delete(observer);
  }

  /** Rules (from --mock or --sampling rules:) that never answered anything, with why. */
  unusedRules(): UnusedRule[] {
    return this.rulesInUse?.unused() ?? [];
  }

  /** `value` as a transcript writes it: this host's URL base (port and token) as TRANSCRIPT_URL_BASE. */
  toTranscript<T>(value: T): T {
    return swapUrlBase(value, this.server.urlBase, TRANSCRIPT_URL_BASE);
  }

  /** `value` read from a transcript: TRANSCRIPT_URL_BASE as this host's URL base (its server starts when a URL needs it). */
  async fromTranscript<T>(value: T): Promise<T> {
    if (value === undefined || !JSON.stringify(value).includes(TRANSCRIPT_URL_BASE)) return value;
    return swapUrlBase(value, TRANSCRIPT_URL_BASE, await this.server.base());
  }

  /** Stops the local HTTP server and drops uploads that were begun but never completed. */
  async close(): Promise<void> {
    this.services.files.discardStaged();
    await this.server.close();
  }

  /**
   * Answers one reverse request (a frame with `method` and `id` from the plugin). The routing is
   * decided at once, on the invokes active now; the answer may come later (a person answering by
   * hand), and it never rejects.
   */
  handle(frame: Record<string, unknown>, ctx: ReverseContext): Promise<Answer> {
    const method = String(frame.method);
    const params = obj(frame.params);
    const context = obj(params.context);
    const invokeId = typeof context.invoke_id === "string" ? context.invoke_id : undefined;
    const legacy = obj(params.metadata).executa_invoke_id;
    const record: ReverseRecord = {
      seq: ++this.seq,
      t: Math.round((performance.now() - this.started) * 10) / 10,
      id: frame.id,
      method,
      params: compact(params),
      invokeId,
      legacyInvokeId: typeof legacy === "string" ? legacy : undefined,
      active: [...ctx.activeInvokes.keys()],
      state: "pending",
    };
    this.log.push(record);
    if (this.log.length > (this.options.maxRecords ?? 20_000)) {
      this.log.shift();
      this.dropped++;
    }
    this.emit("arrived", record);
    const started = performance.now();
    const finish = (answer: Answer): Answer => {
      record.state = "answered";
      record.ms = Math.round((performance.now() - started) * 10) / 10;
      if ("error" in answer) record.error = answer.error;
      else record.result = answer.result;
      record.answeredBy ??= "mock";
      this.emit("answered", record);
      return answer;
    };
    const gated = gate(method, params, invokeId, ctx, this.refused);
    if (gated.routedTo !== undefined) record.routedTo = gated.routedTo;
    if ("error" in gated) {
      record.answeredBy = "host";
      return Promise.resolve(finish({ error: gated.error }));
    }
    const ns = namespaceOf(method);
    const call: Call = {
      method,
      params,
      p: new Params(params, method, ns?.invalid ?? RpcError.InvalidParams),
      invokeId: gated.routedTo,
      toolId: ctx.toolId ?? ctx.activeInvokes.get(gated.routedTo)?.tool ?? "unknown",
      record,
      rule: () => {
        const rule = this.rulesInUse?.find(method, params);
        if (rule) {
          record.answeredBy = "rule";
          record.rule = rule.where;
        }
        return rule;
      },
      note: (text) => (record.notes ??= []).push(text),
    };
    let pending: Promise<Answer>;
    try {
      pending = Promise.resolve(this.dispatch(call));
    } catch (error) {
      pending = Promise.reject(error);
    }
    return pending.then(finish, (error: unknown) => {
      if (record.answeredBy === "manual" && !(error instanceof Refusal))
        record.notes = [...(record.notes ?? []), `the manual answer failed: ${(error as Error).message}`];
      else if (!(error instanceof Refusal)) record.answeredBy = "host";
      return finish({ error: errorOf(error, method) });
    });
  }

  private dispatch(call: Call): Promise<Answer> | Answer {
    const s = this.services;
    const family = namespaceOf(call.method)?.name;
    switch (family) {
      case "sampling":
        return s.sampling.handle(call);
      case "agent":
        return s.agent.handle(call);
      case "storage":
        return s.storage.handle(call);
      case "files":
        return s.files.handle(call);
      case "upload":
        return s.upload.handle(call);
      case "image":
        return s.image.handle(call);
      case "embeddings":
        return handleEmbeddings(call);
      case "web":
        return handleWeb(call);
      default: {
        const rule = call.rule();
        return rule ? ruleAnswer(rule) : { error: unknownMethod(call.method) };
      }
    }
  }

  private emit(event: "arrived" | "answered", record: ReverseRecord): void {
    for (const observer of this.observers) {
      try {
        observer(event, record);
      } catch {
        // an observer's failure is not the plugin's answer
      }
    }
  }
}

function errorOf(error: unknown, method: string): ErrorBody {
  if (error instanceof Refusal) return error.body;
  return {
    code: RpcError.InternalError,
    message: `the mock host could not answer ${method}: ${(error as Error)?.message ?? String(error)}`,
  };
}
