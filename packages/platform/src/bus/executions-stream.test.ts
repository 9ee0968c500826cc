// The stream's limits and trimming rules, without a server (services/ledger/test/integration/
// stream-limits.test.ts runs them on a real nats-server).
import { DiscardPolicy, RetentionPolicy, type StreamConfig, type StreamState } from "nats";
import { EXECUTIONS_STREAM_CONFIG, planStreamUpdate, planTrim } from "./executions-stream";

const MB = 1024 ** 2;
/** A stream as the code before byte limits created it: 7 days, discard old, no byte limit. */
const olderStream = {
  ...EXECUTIONS_STREAM_CONFIG,
  discard: DiscardPolicy.Old,
  max_age: 7 * 24 * 3600 * 1e9,
  max_bytes: -1,
  num_replicas: 1,
} as StreamConfig;
const holding = (bytes: number) => ({ bytes }) as StreamState;
const DEFAULT_LIMIT = EXECUTIONS_STREAM_CONFIG.max_bytes!;

describe("planStreamUpdate", () => {
  it("moves a stream of the older code to discard new, no age limit and the byte limit", () => {
    const plan = planStreamUpdate({ config: olderStream, state: holding(10 * MB) }, { maxBytes: 100 * MB });
    expect(plan.update).toEqual({ discard: DiscardPolicy.New, max_age: 0, max_bytes: 100 * MB });
    expect(plan.notes).toEqual([]);
  });

  it("waits with a limit the stream does not fit in with 10 % to spare: JetStream would delete the oldest messages", () => {
    const plan = planStreamUpdate({ config: olderStream, state: holding(95 * MB) }, { maxBytes: 100 * MB });
    expect(plan.update).toEqual({ discard: DiscardPolicy.New, max_age: 0 });
    expect(plan.notes).toEqual([expect.stringContaining("set once trimming has made room")]);
  });

  it("raises a limit whatever the stream holds", () => {
    const config = { ...EXECUTIONS_STREAM_CONFIG, max_bytes: 100 * MB } as StreamConfig;
    expect(planStreamUpdate({ config, state: holding(99 * MB) }, { maxBytes: 200 * MB }).update).toEqual({ max_bytes: 200 * MB });
  });

  it("leaves the limits alone without maxBytes (executor, router) and only raises replicas", () => {
    expect(planStreamUpdate({ config: olderStream, state: holding(0) }, {})).toEqual({ changed: [], notes: [] });
    expect(planStreamUpdate({ config: olderStream, state: holding(0) }, { replicas: 3 }).update).toEqual({ num_replicas: 3 });
  });

  it("says that a retention JetStream cannot change in place needs the stream recreated", () => {
    const config = { ...EXECUTIONS_STREAM_CONFIG, retention: RetentionPolicy.Interest } as StreamConfig;
    const plan = planStreamUpdate({ config, state: holding(0) }, { maxBytes: DEFAULT_LIMIT });
    expect(plan.notes).toEqual([expect.stringMatching(/interest retention, which JetStream cannot change in place/)]);
  });

  it("changes nothing on a stream that is as it should be", () => {
    expect(planStreamUpdate({ config: EXECUTIONS_STREAM_CONFIG as StreamConfig, state: holding(0) }, { maxBytes: DEFAULT_LIMIT })).toEqual({
      changed: [],
      notes: [],
    });
  });
});

describe("planTrim", () => {
  const hour = 3_600_000;
  const base = { now: 10 * hour, keepMs: hour, bytes: 0, maxBytes: 100 * MB };

  it("purges settlements the ledger acknowledged once older than the keep window, and outcomes older than it", () => {
    const marks = [
      { at: 8 * hour, lastSeq: 100 },
      { at: 9 * hour, lastSeq: 200 }, // newest mark at least an hour old
      { at: 9.5 * hour, lastSeq: 300 },
    ];
    expect(planTrim({ ...base, marks, settledAckFloor: 250 })).toEqual({ settledBelow: 201, outcomesBelow: 201, underPressure: false });
    // Never past what the ledger acknowledged.
    expect(planTrim({ ...base, marks, settledAckFloor: 150 }).settledBelow).toBe(151);
  });

  it("keeps everything while nothing is known to be old enough, or the ledger acknowledged nothing", () => {
    expect(planTrim({ ...base, marks: [{ at: 9.5 * hour, lastSeq: 300 }], settledAckFloor: 300 })).toEqual({
      settledBelow: 0,
      outcomesBelow: 0,
      underPressure: false,
    });
    expect(planTrim({ ...base, marks: [{ at: 1, lastSeq: 300 }], settledAckFloor: 0 }).settledBelow).toBe(0);
  });

  it("from half full on, purges every acknowledged settlement at once, and still none the ledger has not applied", () => {
    const marks = [{ at: 9.5 * hour, lastSeq: 300 }];
    expect(planTrim({ ...base, marks, settledAckFloor: 280, bytes: 50 * MB })).toEqual({
      settledBelow: 281,
      outcomesBelow: 0,
      underPressure: true,
    });
  });
});
