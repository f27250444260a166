/** What the page knows: the server's state, kept current by the event stream, and the results of this page's invokes. */
import type {
  HostState,
  InspectState,
  InvokeAnswer,
  PendingManual,
  PluginState,
  ProgressNote,
  TraceEntry,
  WatchState,
} from "../inspect/wire.js";
import { manifestView } from "./manifest-view.js";

export interface ResultView extends InvokeAnswer {
  tool: string;
  arguments: Record<string, unknown>;
  at: Date;
}

export interface Topics {
  plugin: PluginState;
  host: HostState;
  watch: WatchState;
  credentials: string[];
  pending: PendingManual[];
  trace: readonly TraceEntry[];
  results: readonly ResultView[];
  /** Each executa/progress notification as it arrives (the running invoke's card shows its own). */
  progress: ProgressNote;
  connected: boolean;
}

type Listener<T> = (value: T) => void;

class Store {
  state!: InspectState;
  /** Every trace entry by its number (an entry may come again, updated). */
  private readonly entries = new Map<number, TraceEntry>();
  private sorted: TraceEntry[] | undefined;
  results: ResultView[] = [];
  connected = false;
  private readonly listeners = new Map<keyof Topics, Set<Listener<never>>>();

  /** Calls `listener` on every change of `topic`; returns the unsubscribe. */
  on<K extends keyof Topics>(topic: K, listener: Listener<Topics[K]>): () => void {
    let set = this.listeners.get(topic);
    if (!set) this.listeners.set(topic, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  private emit<K extends keyof Topics>(topic: K, value: Topics[K]): void {
    for (const l of this.listeners.get(topic) ?? []) (l as Listener<Topics[K]>)(value);
  }

  /** The whole state (at start, and after the stream reconnected). */
  load(state: InspectState): void {
    this.state = { ...state, plugin: this.viewable(state.plugin) };
    this.entries.clear();
    for (const e of state.trace) this.entries.set(e.n, e);
    this.sorted = undefined;
    this.emit("plugin", this.state.plugin);
    this.emit("host", state.host);
    this.emit("watch", state.watch);
    this.emit("credentials", state.credentials);
    this.emit("pending", state.pending);
    this.emit("trace", this.trace);
  }

  get trace(): readonly TraceEntry[] {
    this.sorted ??= [...this.entries.values()].sort((a, b) => a.n - b.n);
    return this.sorted;
  }

  addTrace(entries: TraceEntry[]): void {
    let appended = this.sorted !== undefined;
    for (const e of entries) {
      const known = this.entries.has(e.n);
      this.entries.set(e.n, e);
      if (!known && appended && (this.sorted!.length === 0 || this.sorted![this.sorted!.length - 1]!.n < e.n))
        this.sorted!.push(e);
      else appended = false;
    }
    if (!appended) this.sorted = undefined;
    this.emit("trace", this.trace);
  }

  /** What the plugin's describe got wrong, for the Plugin view (the page shows the rest). */
  manifestProblems: string[] = [];

  private viewable(plugin: PluginState): PluginState {
    const view = manifestView(plugin.manifest);
    this.manifestProblems = view?.problems ?? [];
    return view ? { ...plugin, manifest: view.manifest } : plugin;
  }

  set<K extends "plugin" | "host" | "watch" | "credentials" | "pending">(topic: K, value: InspectState[K]): void {
    if (topic === "plugin") value = this.viewable(value as PluginState) as InspectState[K];
    (this.state as unknown as Record<string, unknown>)[topic] = value;
    this.emit(topic, value as Topics[K]);
  }

  addResult(result: ResultView): void {
    this.results = [result, ...this.results].slice(0, 200);
    this.emit("results", this.results);
  }

  addProgress(note: ProgressNote): void {
    this.emit("progress", note);
  }

  setConnected(connected: boolean): void {
    this.connected = connected;
    this.emit("connected", connected);
  }
}

export const store = new Store();
