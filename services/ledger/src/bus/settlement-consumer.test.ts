import { SETTLEMENT_CONSUMER_CONFIG, UNKNOWN_HOLD_MAX_DELIVERIES, nakDelayMs } from "./settlement-consumer";

describe("settlement consumer settings", () => {
  it("redeliver failures with a growing delay, capped at 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 100].map(nakDelayMs)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it("retry for longer than any hold lives before giving up", () => {
    let totalMs = 0;
    for (let delivery = 1; delivery < SETTLEMENT_CONSUMER_CONFIG.max_deliver!; delivery++) totalMs += nakDelayMs(delivery);
    expect(totalMs).toBeGreaterThan(60 * 60 * 1000); // > the longest hold TTL (1 h)
    expect(SETTLEMENT_CONSUMER_CONFIG).toMatchObject({
      durable_name: "ledger",
      filter_subject: "executions.settled",
      ack_policy: "explicit",
    });
  });

  it("wait for an unknown hold longer than any hold lives, and dead-letter it before the server gives up", () => {
    let waitedMs = 0; // between the first delivery and the one that dead-letters
    for (let delivery = 1; delivery < UNKNOWN_HOLD_MAX_DELIVERIES; delivery++) waitedMs += nakDelayMs(delivery);
    expect(waitedMs).toBe(3_661_500); // 31.5 s + 30 s x 121
    expect(waitedMs).toBeGreaterThan(60 * 60 * 1000);
    expect(UNKNOWN_HOLD_MAX_DELIVERIES).toBeLessThan(SETTLEMENT_CONSUMER_CONFIG.max_deliver!);
  });
});
