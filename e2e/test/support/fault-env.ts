// The environment of the crash tests' system: short enough for a test, with production's relations:
// lease > the attempts' longest run (here the execution budget and its settlement publish, shorter
// than a vendor flow's half a hold), hold TTL > one attempt, frequent sweeps, a short abandon grace. The per-key limits are not under test there: out of the
// way of a load from one key (they are tested on their own).
export const FAULT_TEST_ENV: Readonly<Record<string, string>> = {
  MAX_ATTEMPTS: "1",
  PROVIDER_TIMEOUT_MS: "2500",
  SETTLEMENT_PUBLISH_TIMEOUT_MS: "1000",
  EXECUTION_BUDGET_MS: "4500",
  IDEMPOTENCY_LEASE_MS: "6000",
  IDEMPOTENCY_WAIT_MS: "3000",
  HOLD_TTL_MS: "12000",
  EXPIRY_SWEEP_INTERVAL_MS: "200",
  EXECUTION_ABANDON_GRACE_MS: "500",
  RATE_LIMIT_RPS: "100000",
  RATE_LIMIT_BURST: "100000",
  RATE_LIMIT_MAX_IN_FLIGHT: "100000",
  SHED_EVENT_LOOP_DELAY_MS: "0",
};
