import { ConfigError, loadConfig } from "@agentic/platform";
import { testIdentities } from "@agentic/testing";
import { configSchema } from "./config";

/** The router's private key: every start needs one. */
const ID = { SERVICE_IDENTITY_KEY: testIdentities().privateKeys.router, TRUSTED_SERVICE_KEYS: testIdentities().trustedKeys };

function problems(env: NodeJS.ProcessEnv): string[] {
  try {
    loadConfig(configSchema, env);
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
  throw new Error("expected a ConfigError");
}

describe("router config", () => {
  it("applies local defaults", () => {
    const c = loadConfig(configSchema, { ...ID, NATS_URL: "nats://127.0.0.1:4222" });
    expect(c).toMatchObject({
      PORT: 50052,
      METRICS_PORT: 9462,
      CATALOG_ADDR: "127.0.0.1:50051",
      LEDGER_ADDR: "127.0.0.1:50054",
      DEFAULT_PREFERENCES: ["cost", "reliability"],
      WEIGHT_DECAY: 0.3,
      BREAKER_FAILURES: 5,
      OUTCOME_REPLAY_MS: 600_000,
      RECOMMENDATION_TTL_MS: 600_000,
      AGENT_PREFERENCES_TTL_MS: 30 * 86_400_000,
      RECOMMENDATION_STORE_MAX_BYTES: 256 * 1024 ** 2,
      OUTCOME_REPLAY_TIMEOUT_MS: 60_000,
      NATS_STREAM_REPLICAS: 1,
    });
  });

  it("refuses a recommendation lifetime under a second and a store under a MiB, by name", () => {
    expect(problems({ ...ID, NATS_URL: "n", RECOMMENDATION_TTL_MS: "500" })[0]).toContain("RECOMMENDATION_TTL_MS");
    expect(problems({ ...ID, NATS_URL: "n", RECOMMENDATION_STORE_MAX_BYTES: "1000" })[0]).toContain("RECOMMENDATION_STORE_MAX_BYTES");
  });

  it("reads NATS_STREAM_REPLICAS", () => {
    expect(loadConfig(configSchema, { ...ID, NATS_URL: "n", NATS_STREAM_REPLICAS: "3" }).NATS_STREAM_REPLICAS).toBe(3);
    expect(problems({ ...ID, NATS_URL: "n", NATS_STREAM_REPLICAS: "0" })[0]).toContain("NATS_STREAM_REPLICAS");
  });

  it("requires NATS_URL, and the dependency addresses in production", () => {
    expect(problems({}).join("\n")).toContain("NATS_URL");
    expect(problems({ NATS_URL: "nats://n:4222" }).join("\n")).toContain("SERVICE_IDENTITY_KEY: required");
    const prod = problems({ ...ID, NATS_URL: "nats://n:4222", APP_ENV: "production" }).join("\n");
    expect(prod).toContain("CATALOG_ADDR is required when APP_ENV=production");
    expect(prod).toContain("LEDGER_ADDR is required when APP_ENV=production");
  });

  it("parses and checks the default preferences", () => {
    expect(loadConfig(configSchema, { ...ID, NATS_URL: "n", DEFAULT_PREFERENCES: "speed, quality" }).DEFAULT_PREFERENCES).toEqual([
      "speed",
      "quality",
    ]);
    expect(problems({ ...ID, NATS_URL: "n", DEFAULT_PREFERENCES: "speed,speed" })[0]).toContain("DEFAULT_PREFERENCES");
    expect(problems({ ...ID, NATS_URL: "n", DEFAULT_PREFERENCES: "cheap" })[0]).toContain("DEFAULT_PREFERENCES");
  });
});
