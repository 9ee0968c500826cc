import { RouteHealthBook, type RouteOutcomeObservation } from "./route-health";
import { HEALTH } from "../../test/routes";

const T0 = Date.parse("2026-11-22T10:00:00Z");
const KEY = "email.send.resend";

function outcome(ok: boolean, observedAtMs: number, latencyMs = 100, routeKey = KEY): RouteOutcomeObservation {
  return { routeKey, ok, errorKind: ok ? "" : "http_5xx", latencyMs, observedAtMs };
}

describe("RouteHealthBook", () => {
  it("knows nothing about a route without traffic", () => {
    expect(new RouteHealthBook(HEALTH).get(KEY, T0)).toBeUndefined();
  });

  it("computes the success rate over the last `successWindow` outcomes only", () => {
    const book = new RouteHealthBook({ ...HEALTH, successWindow: 10 });
    for (let i = 0; i < 10; i++) book.record(outcome(false, T0 + i));
    for (let i = 0; i < 10; i++) book.record(outcome(true, T0 + 100 + i));
    expect(book.get(KEY, T0 + 200)).toMatchObject({ calls: 10, successRate: 1 });
    for (let i = 0; i < 3; i++) book.record(outcome(false, T0 + 300 + i));
    expect(book.get(KEY, T0 + 400)!.successRate).toBeCloseTo(0.7, 10);
  });

  it("tracks p50 and EWMA latency of successful calls", () => {
    const book = new RouteHealthBook({ ...HEALTH, ewmaAlpha: 0.5 });
    for (const ms of [100, 300, 200]) book.record(outcome(true, T0, ms));
    book.record(outcome(false, T0, 9_999)); // a failure's latency is not a service time
    const h = book.get(KEY, T0)!;
    expect(h.p50LatencyMs).toBe(200);
    expect(h.latencySamples).toBe(3);
    expect(h.ewmaLatencyMs).toBe(0.5 * 200 + 0.5 * (0.5 * 300 + 0.5 * 100));
  });

  it("reports the p95 latency (nearest rank) and when the latest failure happened", () => {
    const book = new RouteHealthBook({ ...HEALTH, latencyWindow: 20 });
    for (let ms = 1; ms <= 20; ms++) book.record(outcome(true, T0, ms * 10));
    expect(book.get(KEY, T0)).toMatchObject({ p50LatencyMs: 100, p95LatencyMs: 190 });
    expect(book.get(KEY, T0)!.lastFailureAtMs).toBeUndefined();
    book.record(outcome(false, T0 + 5));
    book.record(outcome(false, T0 + 3)); // out of order: the latest event time wins
    expect(book.get(KEY, T0 + 10)!.lastFailureAtMs).toBe(T0 + 5);
  });

  it("opens the breaker after N consecutive failures, half-opens after the cool-down, closes on success", () => {
    const book = new RouteHealthBook(HEALTH);
    for (let i = 0; i < 4; i++) book.record(outcome(false, T0 + i));
    expect(book.get(KEY, T0 + 10)!.breaker).toBe("closed");
    book.record(outcome(false, T0 + 4));
    expect(book.get(KEY, T0 + 10)).toMatchObject({
      breaker: "open",
      consecutiveFailures: 5,
      lastErrorKind: "http_5xx",
      retryAtMs: T0 + 4 + 30_000,
    });
    expect(book.get(KEY, T0 + 4 + 30_000)!.breaker).toBe("half_open");
    book.record(outcome(true, T0 + 31_000));
    expect(book.get(KEY, T0 + 31_000)).toMatchObject({ breaker: "closed", consecutiveFailures: 0 });
  });

  it("re-opens the breaker when the half-open trial fails", () => {
    const book = new RouteHealthBook(HEALTH);
    for (let i = 0; i < 5; i++) book.record(outcome(false, T0));
    book.record(outcome(false, T0 + 40_000));
    expect(book.get(KEY, T0 + 40_001)).toMatchObject({ breaker: "open", retryAtMs: T0 + 70_000 });
  });

  it("a success in between resets the failure run", () => {
    const book = new RouteHealthBook(HEALTH);
    for (let i = 0; i < 4; i++) book.record(outcome(false, T0));
    book.record(outcome(true, T0));
    for (let i = 0; i < 4; i++) book.record(outcome(false, T0));
    expect(book.get(KEY, T0)!.breaker).toBe("closed");
  });

  it("two books fed the same outcomes agree", () => {
    const a = new RouteHealthBook(HEALTH);
    const b = new RouteHealthBook(HEALTH);
    const seq = Array.from({ length: 50 }, (_, i) => outcome(i % 7 !== 0, T0 + i * 10, 100 + (i % 13) * 10, i % 2 ? KEY : "other"));
    seq.forEach((o) => a.record(o));
    seq.forEach((o) => b.record(o));
    expect(a.get(KEY, T0 + 1000)).toEqual(b.get(KEY, T0 + 1000));
  });

  it("recomputes the cached p50 after new latencies arrive", () => {
    const book = new RouteHealthBook(HEALTH);
    for (const ms of [100, 300, 200]) book.record(outcome(true, T0, ms));
    expect(book.get(KEY, T0)!.p50LatencyMs).toBe(200);
    expect(book.get(KEY, T0)!.p50LatencyMs).toBe(200);
    for (const ms of [50, 60]) book.record(outcome(true, T0, ms));
    expect(book.get(KEY, T0)).toMatchObject({ p50LatencyMs: 100, latencySamples: 5 });
    book.record(outcome(false, T0)); // no new latency: the p50 stays
    expect(book.get(KEY, T0)!.p50LatencyMs).toBe(100);
  });

  it("forgets the least recently reported route; reads do not count, so replicas evict alike", () => {
    const a = new RouteHealthBook({ ...HEALTH, maxRoutes: 2 });
    const b = new RouteHealthBook({ ...HEALTH, maxRoutes: 2 });
    for (const book of [a, b]) {
      book.record(outcome(true, T0, 100, "first"));
      book.record(outcome(true, T0, 100, "second"));
    }
    // Only replica a serves recommends that read "first".
    for (let i = 0; i < 3; i++) a.get("first", T0);
    a.snapshot(["first"], T0);
    for (const book of [a, b]) {
      book.record(outcome(true, T0, 100, "third"));
      expect(book.get("first", T0)).toBeUndefined();
      expect(book.get("second", T0)).toBeDefined();
      expect(book.get("third", T0)).toBeDefined();
    }
  });

  it("snapshot reads each route once and leaves out routes without traffic", () => {
    const book = new RouteHealthBook(HEALTH);
    book.record(outcome(true, T0, 120));
    const snap = book.snapshot([KEY, "silent", KEY], T0);
    expect([...snap.keys()]).toEqual([KEY]);
    expect(snap.get(KEY)).toEqual(book.get(KEY, T0));
  });

  describe("whose failures count", () => {
    const by = (userId: string, ok: boolean, at: number, blame = "provider"): RouteOutcomeObservation => ({
      ...outcome(ok, at),
      userId,
      blame: ok ? "" : blame,
      errorKind: ok ? "" : blame === "input" ? "http_4xx" : "timeout",
    });

    it("a caller's input refusals never touch the route: no failure, no breaker, nothing in the rate", () => {
      const book = new RouteHealthBook(HEALTH);
      book.record(by("bob", true, T0));
      for (let i = 0; i < 8; i++) book.record(by("mallory", false, T0 + i, "input"));
      expect(book.get(KEY, T0 + 10)).toMatchObject({ breaker: "closed", calls: 1, successRate: 1, consecutiveFailures: 0 });
      expect(book.getFor(KEY, "bob", T0 + 10)).toMatchObject({ breaker: "closed" });
    });

    it("keeps them for that caller: its own breaker opens for it alone, and a success of its own closes it", () => {
      const book = new RouteHealthBook(HEALTH);
      for (let i = 0; i < 5; i++) book.record(by("mallory", false, T0 + i, "input"));
      expect(book.get(KEY, T0 + 10)).toBeUndefined();
      expect(book.getFor(KEY, "bob", T0 + 10)).toBeUndefined();
      expect(book.getFor(KEY, "mallory", T0 + 10)).toMatchObject({
        breaker: "open",
        breakerScope: "caller",
        consecutiveFailures: 5,
        lastErrorKind: "http_4xx",
        retryAtMs: T0 + 4 + 30_000,
      });
      expect(book.snapshot([KEY], T0 + 10, "mallory").get(KEY)?.breaker).toBe("open");
      expect(book.getFor(KEY, "mallory", T0 + 4 + 30_000)).toBeUndefined();
      book.record(by("mallory", true, T0 + 20));
      expect(book.getFor(KEY, "mallory", T0 + 21)).toMatchObject({ breaker: "closed" });
    });

    it("failures one caller alone provoked (timeouts) open no breaker and leave the rate alone for everyone", () => {
      const book = new RouteHealthBook(HEALTH);
      for (let i = 0; i < 3; i++) book.record(by("bob", true, T0 + i));
      for (let i = 0; i < 20; i++) book.record(by("mallory", false, T0 + 10 + i));
      expect(book.get(KEY, T0 + 40)).toMatchObject({ breaker: "closed", calls: 3, successRate: 1, consecutiveFailures: 20 });
      expect(book.getFor(KEY, "mallory", T0 + 40)).toMatchObject({ breaker: "open", breakerScope: "caller" });
    });

    it("counts each caller's failures at most as often as the runner-up's: one stray failure of another caller opens nothing", () => {
      const book = new RouteHealthBook(HEALTH);
      for (let i = 0; i < 20; i++) book.record(by("mallory", false, T0 + i));
      book.record(by("bob", false, T0 + 30));
      // Counted: bob 1 + mallory capped at 1.
      expect(book.get(KEY, T0 + 40)).toMatchObject({ breaker: "closed", calls: 2, successRate: 0 });
      book.record(by("carol", false, T0 + 31));
      book.record(by("bob", false, T0 + 32));
      // bob 2, carol 1, mallory capped at 2: five.
      expect(book.get(KEY, T0 + 40)).toMatchObject({ breaker: "open", breakerScope: "route" });
    });

    it("opens the breaker when the vendor fails for several callers, for everyone", () => {
      const book = new RouteHealthBook(HEALTH);
      for (let i = 0; i < 6; i++) book.record(by(["ann", "bob", "cid"][i % 3]!, false, T0 + i));
      expect(book.getFor(KEY, "dave", T0 + 10)).toMatchObject({ breaker: "open", breakerScope: "route", consecutiveFailures: 6 });
      expect(book.get(KEY, T0 + 10)!.successRate).toBe(0);
    });

    it("counts the platform's own evidence (no user) in full", () => {
      const book = new RouteHealthBook(HEALTH);
      for (let i = 0; i < 5; i++) book.record(by("", false, T0 + i));
      expect(book.get(KEY, T0 + 10)).toMatchObject({ breaker: "open", calls: 5 });
    });

    it("forgets a caller's failures as they leave the success window", () => {
      const book = new RouteHealthBook({ ...HEALTH, successWindow: 4 });
      book.record(by("ann", false, T0));
      book.record(by("bob", false, T0 + 1));
      expect(book.get(KEY, T0 + 2)).toMatchObject({ calls: 2, successRate: 0 });
      for (let i = 0; i < 3; i++) book.record(by("cid", true, T0 + 2 + i));
      // ann's failure left the window; bob's alone is not counted.
      expect(book.get(KEY, T0 + 10)).toMatchObject({ calls: 3, successRate: 1 });
    });
  });
});
