import { SETTLEMENT_CONSUMER_CONFIG, nakDelayMs } from "./settlement-consumer";

describe("settlement consumer settings", () => {
  it("redeliver failures with a growing delay, capped at 30 s", () => {
    expect([1, 2, 3, 4, 5, 6, 7, 8, 100].map(nakDelayMs)).toEqual([500, 1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000, 30_000]);
  });

  it("retry for longer than any hold lives before giving up", () => {
    let totalMs = 0;
    for (let delivery = 1; delivery < SETTLEMENT_CONSUMER_CONFIG.max_deliver!; delivery++) totalMs += nakDelayMs(delivery);
    expect(totalMs).toBeGreaterThan(60 * 60 * 1000); // > the longest hold TTL (1 h)
    expect(SETTLEMENT_CONSUMER_CONFIG).toMatchObject({ durable_name: "ledger", filter_subject: "executions.settled", ack_policy: "explicit" });
  });
});
