// The stop's timings derive from the execution budget: a SHUTDOWN_DEADLINE_MS that cannot hold one
// execution and its settlement is refused, naming the settings.
import { loadConfig } from "@agentic/platform";
import { testIdentities } from "@agentic/testing";
import { allAttemptsMs, configSchema, executeAnswerBoundMs, jetStreamFootprint, minShutdownDeadlineMs } from "./config";

const REQUIRED = {
  NATS_URL: "nats://127.0.0.1:4222",
  APP_ENV: "test",
  SERVICE_IDENTITY_KEY: testIdentities().privateKeys.executor,
  TRUSTED_SERVICE_KEYS: testIdentities().trustedKeys,
};

describe("executor shutdown timings", () => {
  it("defaults hold the inequality: shutdown deadline >= budget + settlement + stored results + margin", () => {
    const config = configSchema.parse(REQUIRED);
    expect(config.SHUTDOWN_DEADLINE_MS).toBeGreaterThanOrEqual(minShutdownDeadlineMs(config));
    expect(executeAnswerBoundMs(config)).toBe(config.EXECUTION_BUDGET_MS + config.SETTLEMENT_PUBLISH_TIMEOUT_MS + 3 * 2_000 + 1_000);
    expect(minShutdownDeadlineMs(config)).toBeGreaterThan(config.EXECUTION_BUDGET_MS + config.SETTLEMENT_PUBLISH_TIMEOUT_MS);
  });

  it("refuses a shutdown deadline shorter than one execution, naming the settings", () => {
    expect(() => loadConfig(configSchema, { ...REQUIRED, EXECUTION_BUDGET_MS: "60000", SHUTDOWN_DEADLINE_MS: "25000" })).toThrow(
      /SHUTDOWN_DEADLINE_MS.*EXECUTION_BUDGET_MS \+ SETTLEMENT_PUBLISH_TIMEOUT_MS.*DEPENDENCY_DEADLINE_MS.*= 89000 ms/s,
    );
  });

  it("accepts a short budget with a short deadline", () => {
    const config = loadConfig(configSchema, {
      ...REQUIRED,
      EXECUTION_BUDGET_MS: "5000",
      SETTLEMENT_PUBLISH_TIMEOUT_MS: "2000",
      DEPENDENCY_DEADLINE_MS: "1000",
      SHUTDOWN_DEADLINE_MS: "20000",
    });
    expect(minShutdownDeadlineMs(config)).toBe(5_000 + 2_000 + 2 * (3 * 1_000 + 1_000) + 5_000);
  });
});

describe("executor idempotency lease", () => {
  it("must outlast a vendor flow, which may run half a hold's life, not only one provider timeout", () => {
    // One attempt of 15 s + 10 s would fit a 30 s lease; a flow of up to 60 s (half of a 120 s hold) would not.
    const settings = { ...REQUIRED, MAX_ATTEMPTS: "1", PROVIDER_TIMEOUT_MS: "15000", SETTLEMENT_PUBLISH_TIMEOUT_MS: "10000" };
    expect(() => loadConfig(configSchema, { ...settings, IDEMPOTENCY_LEASE_MS: "30000" })).toThrow(
      /IDEMPOTENCY_LEASE_MS.*70000 ms.*HOLD_TTL_MS \/ 2/s,
    );
    expect(allAttemptsMs(loadConfig(configSchema, { ...settings, IDEMPOTENCY_LEASE_MS: "70001" }))).toBe(60_000 + 10_000);
  });

  it("is bounded by the execution budget whatever the attempts, since none runs past it", () => {
    const config = configSchema.parse(REQUIRED);
    expect(allAttemptsMs(config)).toBe(config.EXECUTION_BUDGET_MS + config.SETTLEMENT_PUBLISH_TIMEOUT_MS);
    expect(config.IDEMPOTENCY_LEASE_MS).toBeGreaterThan(allAttemptsMs(config));
  });
});

describe("executor JetStream footprint", () => {
  it("lists each vendor quota bucket with its byte limit, for the deployment's storage sum", () => {
    expect(jetStreamFootprint()).toEqual([
      { kind: "bucket", name: "vendor_quota_minute", maxBytes: 8 * 1024 ** 2 },
      { kind: "bucket", name: "vendor_quota_day", maxBytes: 32 * 1024 ** 2 },
      { kind: "bucket", name: "vendor_quota_month", maxBytes: 64 * 1024 ** 2 },
    ]);
  });
});
