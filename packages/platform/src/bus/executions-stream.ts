// The JetStream stream that carries execution events, defined once for every service, and what
// keeps it bounded: a byte limit that refuses new messages rather than dropping old ones, a trimmer
// that removes what no consumer needs any more, and its fill level as Prometheus gauges.
//
// Why limits retention plus a trimmer, not interest retention: the stream's consumers need different
// things. The ledger needs every settlement until it has applied it (its durable's ack floor); the
// routers replay the last OUTCOME_REPLAY_MS of outcomes through ordered consumers, which acknowledge
// on delivery; nobody consumes executions.dead, which operators read. Under interest retention the
// outcomes would go as soon as the running routers had read them (a router started later replays
// nothing), a dead letter would go at once, and a settlement published while no `ledger` durable
// exists is acknowledged to the executor and never stored. So the stream keeps everything, and the
// ledger purges what is done: settlements below its ack floor, outcomes older than the keep window.
import { DiscardPolicy, RetentionPolicy, StorageType, type JetStreamManager, type StreamConfig, type StreamInfo } from "nats";
import { Gauge } from "prom-client";
import type { Logger } from "../logger";
import { singleton } from "../metrics/rpc-metrics";

export const EXECUTIONS_STREAM = "EXECUTIONS";
/** ExecutionSettled (agentic.events.v1), published by the executor, applied by the ledger. */
export const SUBJECT_SETTLED = "executions.settled";
/** RouteOutcome (agentic.events.v1), published by the executor, consumed by the router. */
export const SUBJECT_OUTCOME = "executions.outcome";

/** NATS_STREAM_MAX_BYTES default: 1 GiB, about 12 h of 150 requests/s with no settlement applied. */
export const DEFAULT_STREAM_MAX_BYTES = 1024 ** 3;
/** NATS_STREAM_KEEP_MS default: an hour, above the router's outcome replay (10 minutes by default). */
export const DEFAULT_STREAM_KEEP_MS = 60 * 60_000;
/** Fill ratio from which applied settlements are purged at once rather than after the keep window. */
export const STREAM_PRESSURE_RATIO = 0.5;
/** A lower byte limit is set only when the stream holds at most this share of it (see planStreamUpdate). */
const LOWER_LIMIT_HEADROOM = 0.9;

/**
 * File storage, limits retention with no age limit (nothing is dropped by time: the trimmer removes
 * what is done), a byte limit with discard `new` (when full, publishes are refused and the executor
 * reports the capture unconfirmed; no stored message is ever dropped), 2-minute de-duplication.
 */
export const EXECUTIONS_STREAM_CONFIG: Partial<StreamConfig> = {
  name: EXECUTIONS_STREAM,
  subjects: ["executions.>"],
  storage: StorageType.File,
  retention: RetentionPolicy.Limits,
  discard: DiscardPolicy.New,
  max_bytes: DEFAULT_STREAM_MAX_BYTES,
  max_age: 0,
  duplicate_window: 2 * 60 * 1e9, // ns: Nats-Msg-Id de-duplication of republished settlements
};

export interface EnsureStreamOptions {
  /** Copies (3 on a 3-node JetStream cluster, so settlements survive the loss of a node); default 1. */
  replicas?: number;
  /**
   * The byte limit to hold the stream to (the ledger's NATS_STREAM_MAX_BYTES). Given, it also moves
   * an existing stream to discard `new` and no age limit. Omitted (executor, router): a new stream
   * gets DEFAULT_STREAM_MAX_BYTES and an existing one's limits are left to the ledger.
   */
  maxBytes?: number;
}

/** What ensureExecutionsStream found and did, for the caller's log. */
export interface StreamReport {
  created: boolean;
  /** Settings changed on the existing stream, e.g. "max_bytes -1 → 1073741824". */
  changed: string[];
  /** What needs an operator or has to wait, in words for the log. */
  notes: string[];
}

/**
 * The settings an existing stream needs changed (pure). A lower byte limit is set only while the
 * stream holds at most 90 % of it: JetStream meets a new limit by deleting the oldest messages,
 * unapplied captures included, whatever the discard policy. Above that, the limit waits for the
 * trimmer to make room.
 */
export function planStreamUpdate(
  info: Pick<StreamInfo, "config" | "state">,
  opts: EnsureStreamOptions,
): { update?: Partial<StreamConfig>; changed: string[]; notes: string[] } {
  const { config, state } = info;
  const update: Partial<StreamConfig> = {};
  const changed: string[] = [];
  const notes: string[] = [];
  const replicas = opts.replicas ?? 1;
  if ((config.num_replicas ?? 1) < replicas) {
    update.num_replicas = replicas;
    changed.push(`num_replicas ${config.num_replicas ?? 1} → ${replicas}`);
  }
  if (opts.maxBytes !== undefined) {
    if (config.retention !== RetentionPolicy.Limits) {
      notes.push(
        `${EXECUTIONS_STREAM} has ${config.retention} retention, which JetStream cannot change in place: outcomes and dead ` +
          `letters are not kept as this version expects. Recreate it once the ledger has applied every settlement (deploy/k8s/README.md, "The EXECUTIONS stream")`,
      );
    }
    if (config.discard !== DiscardPolicy.New) {
      update.discard = DiscardPolicy.New;
      changed.push(`discard ${config.discard} → new`);
    }
    if ((config.max_age ?? 0) > 0) {
      update.max_age = 0;
      changed.push(`max_age ${config.max_age / 1e9} s → none`);
    }
    const current = config.max_bytes ?? -1;
    if (current !== opts.maxBytes) {
      const raising = current < 0 ? false : opts.maxBytes > current;
      if (raising || state.bytes <= opts.maxBytes * LOWER_LIMIT_HEADROOM) {
        update.max_bytes = opts.maxBytes;
        changed.push(`max_bytes ${current} → ${opts.maxBytes}`);
      } else {
        notes.push(
          `${EXECUTIONS_STREAM} holds ${state.bytes} bytes, too close to or above the limit of ${opts.maxBytes} to set it ` +
            `now (JetStream would delete the oldest messages to fit); it is set once trimming has made room`,
        );
      }
    }
  }
  return { ...(changed.length > 0 ? { update } : {}), changed, notes };
}

/**
 * Creates the stream when missing (idempotent), raises the replica count of an existing stream that
 * has fewer, and, given `maxBytes`, moves an existing stream to the limits of this version when that
 * is safe (planStreamUpdate). Any service that publishes or consumes calls it.
 */
export async function ensureExecutionsStream(jsm: JetStreamManager, opts: EnsureStreamOptions = {}): Promise<StreamReport> {
  let info: StreamInfo;
  try {
    info = await jsm.streams.info(EXECUTIONS_STREAM);
  } catch (err) {
    if ((err as { code?: string }).code !== "404") throw err;
    try {
      await jsm.streams.add({
        ...EXECUTIONS_STREAM_CONFIG,
        num_replicas: opts.replicas ?? 1,
        max_bytes: opts.maxBytes ?? DEFAULT_STREAM_MAX_BYTES,
      });
      return { created: true, changed: [], notes: [] };
    } catch (addErr) {
      // Another replica created it between our info and add: check it like any existing stream.
      if (!/already in use|exists/i.test(String((addErr as Error).message))) throw addErr;
      info = await jsm.streams.info(EXECUTIONS_STREAM);
    }
  }
  return { created: false, ...(await applyPlan(jsm, info, opts)) };
}

async function applyPlan(jsm: JetStreamManager, info: StreamInfo, opts: EnsureStreamOptions): Promise<Omit<StreamReport, "created">> {
  const { update, changed, notes } = planStreamUpdate(info, opts);
  if (update) await jsm.streams.update(EXECUTIONS_STREAM, { ...info.config, ...update });
  return { changed, notes };
}

/** The newest sequence known to be at least `keepMs` old, from marks of (time of the last message, its sequence). */
export interface SequenceMark {
  /** When the message `lastSeq` was stored, in ms since the epoch. */
  at: number;
  lastSeq: number;
}

export interface TrimPlanInput {
  now: number;
  keepMs: number;
  marks: readonly SequenceMark[];
  /** Stream sequence below or at which the settlement durable has acknowledged everything (0: none, or no durable). */
  settledAckFloor: number;
  bytes: number;
  maxBytes: number;
}

/** What to purge (pure): each subject's messages below the given sequence; 0 = nothing. */
export interface TrimPlan {
  settledBelow: number;
  outcomesBelow: number;
  underPressure: boolean;
}

/**
 * Settlements go once the ledger has acknowledged them (applied, or dead-lettered and terminated)
 * and they are older than the keep window, or at once while the stream is at least half full;
 * outcomes go when older than the keep window; anything else (executions.dead) stays for operators.
 */
export function planTrim(input: TrimPlanInput): TrimPlan {
  const cutoff = input.now - input.keepMs;
  const oldEnough = input.marks.reduce((seq, m) => (m.at <= cutoff ? Math.max(seq, m.lastSeq) : seq), 0);
  const underPressure = input.maxBytes > 0 && input.bytes >= input.maxBytes * STREAM_PRESSURE_RATIO;
  const applied = input.settledAckFloor;
  const settledUpTo = underPressure ? applied : Math.min(applied, oldEnough);
  return {
    settledBelow: settledUpTo > 0 ? settledUpTo + 1 : 0,
    outcomesBelow: oldEnough > 0 ? oldEnough + 1 : 0,
    underPressure,
  };
}

export interface StreamTrimOptions {
  jsm: JetStreamManager;
  /** The durable whose acknowledgements mark settlements applied (the ledger's, "ledger"). */
  settlementConsumer: string;
  /** Every message stays at least this long, in ms (NATS_STREAM_KEEP_MS); at least the routers' outcome replay. */
  keepMs: number;
  /** The byte limit (NATS_STREAM_MAX_BYTES), set on the stream as soon as that is safe. */
  maxBytes: number;
  replicas?: number;
  /** How often to trim, in ms (default 10 s). */
  intervalMs?: number;
  logger: Logger;
  now?: () => number;
}

export interface TrimResult extends TrimPlan {
  /** Messages purged by this pass. */
  purged: number;
  bytes: number;
}

export interface StreamTrimmer {
  /** One pass now (also what every interval runs); resolves with what it did. */
  trim(): Promise<TrimResult>;
  /** Stops the interval; resolves once a pass in progress has ended. */
  stop(): Promise<void>;
}

/**
 * Trims the EXECUTIONS stream every `intervalMs` (planTrim), and sets the byte limit once the stream
 * has room for it. Purges are idempotent, so every ledger replica may run one. A failed pass (NATS
 * away) is logged and the next one tries again.
 */
export function startStreamTrimmer(opts: StreamTrimOptions): StreamTrimmer {
  const now = opts.now ?? Date.now;
  let marks: SequenceMark[] = [];
  let lastNotes = "";
  let running: Promise<TrimResult> | undefined;
  let stopped = false;

  async function pass(): Promise<TrimResult> {
    const info = await opts.jsm.streams.info(EXECUTIONS_STREAM);
    const { state } = info;
    // All messages up to last_seq were stored at or before last_ts (server time).
    if (state.last_seq > 0) marks.push({ at: Date.parse(state.last_ts), lastSeq: state.last_seq });
    const cutoff = now() - opts.keepMs;
    const newestOld = marks.filter((m) => m.at <= cutoff).at(-1);
    marks = marks.filter((m) => m.at > cutoff || m === newestOld);

    const plan = planTrim({
      now: now(),
      keepMs: opts.keepMs,
      marks,
      settledAckFloor: await ackFloor(opts.jsm, opts.settlementConsumer),
      bytes: state.bytes,
      maxBytes: info.config.max_bytes > 0 ? info.config.max_bytes : opts.maxBytes,
    });
    let purged = 0;
    for (const [filter, below] of [
      [SUBJECT_SETTLED, plan.settledBelow],
      [SUBJECT_OUTCOME, plan.outcomesBelow],
    ] as const) {
      if (below > state.first_seq) purged += (await opts.jsm.streams.purge(EXECUTIONS_STREAM, { filter, seq: below })).purged;
    }
    const after = purged > 0 ? await opts.jsm.streams.info(EXECUTIONS_STREAM) : info;
    const { changed, notes } = await applyPlan(opts.jsm, after, { replicas: opts.replicas, maxBytes: opts.maxBytes });
    if (changed.length > 0) opts.logger.info({ stream: EXECUTIONS_STREAM, changed }, "EXECUTIONS stream limits updated");
    if (notes.join("\n") !== lastNotes) {
      for (const note of notes) opts.logger.warn({ stream: EXECUTIONS_STREAM }, note);
      lastNotes = notes.join("\n");
    }
    if (purged > 0) opts.logger.debug({ stream: EXECUTIONS_STREAM, purged, ...plan }, "EXECUTIONS stream trimmed");
    return { ...plan, purged, bytes: after.state.bytes };
  }

  function trim(): Promise<TrimResult> {
    // One pass at a time: an interval tick during a slow pass joins it.
    running ??= pass().finally(() => (running = undefined));
    return running;
  }

  const timer = setInterval(() => {
    if (stopped) return;
    trim().catch((err: unknown) => opts.logger.warn({ err, stream: EXECUTIONS_STREAM }, "trimming the EXECUTIONS stream failed; retrying"));
  }, opts.intervalMs ?? 10_000);
  timer.unref();

  return {
    trim,
    async stop() {
      stopped = true;
      clearInterval(timer);
      await running?.catch(() => undefined);
    },
  };
}

/** The stream sequence up to which `durable` has acknowledged everything; 0 when it does not exist. */
async function ackFloor(jsm: JetStreamManager, durable: string): Promise<number> {
  try {
    return (await jsm.consumers.info(EXECUTIONS_STREAM, durable)).ack_floor.stream_seq;
  } catch (err) {
    if ((err as { code?: string }).code === "404") return 0;
    throw err;
  }
}

const watchedStreams = new Map<string, JetStreamManager>();
let reading: Promise<void> | undefined;

/** Reads every watched stream once per scrape: the three gauges' collect() share one read. */
function readStreams(): Promise<void> {
  reading ??= Promise.all(
    [...watchedStreams].map(async ([stream, jsm]) => {
      try {
        const info = await jsm.streams.info(stream);
        bytesGauge.set({ stream }, info.state.bytes);
        messagesGauge.set({ stream }, info.state.messages);
        if (info.config.max_bytes > 0) maxBytesGauge.set({ stream }, info.config.max_bytes);
        else maxBytesGauge.remove({ stream });
      } catch {
        // NATS unreachable during a scrape: leave the last values rather than fail /metrics.
      }
    }),
  ).then(() => {
    reading = undefined;
  });
  return reading;
}

const maxBytesGauge = singleton(
  "nats_stream_max_bytes",
  () =>
    new Gauge({
      name: "nats_stream_max_bytes",
      help: "Byte limit of a JetStream stream (absent when unlimited); publishes are refused beyond it.",
      labelNames: ["stream"] as const,
      collect: readStreams,
    }),
);

const messagesGauge = singleton(
  "nats_stream_messages",
  () =>
    new Gauge({
      name: "nats_stream_messages",
      help: "Messages held by a JetStream stream.",
      labelNames: ["stream"] as const,
      collect: readStreams,
    }),
);

const bytesGauge = singleton(
  "nats_stream_bytes",
  () =>
    new Gauge({
      name: "nats_stream_bytes",
      help: "Bytes held by a JetStream stream; alert on nats_stream_bytes / nats_stream_max_bytes.",
      labelNames: ["stream"] as const,
      collect: readStreams,
    }),
);

/** Reports the fill of `stream` in /metrics, read from the server at each scrape; returns a function that stops it. */
export function watchStreamFill(jsm: JetStreamManager, stream: string = EXECUTIONS_STREAM): () => void {
  watchedStreams.set(stream, jsm);
  void bytesGauge; // registered on first use of this module
  return () => {
    if (watchedStreams.get(stream) === jsm) watchedStreams.delete(stream);
  };
}
