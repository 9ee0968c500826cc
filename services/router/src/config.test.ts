import { ConfigError, loadConfig } from "@agentic/platform";
import { testIdentities } from "@agentic/testing";
import { configSchema, jetStreamFootprint } from "./config";

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
      AGENT_PREFERENCES_MAX_BYTES: 256 * 1024 ** 2,
      AGENT_NAMES_PER_USER_MAX: 1_000,
      OUTCOME_REPLAY_TIMEOUT_MS: 60_000,
      NATS_STREAM_REPLICAS: 1,
    });
  });

  it("refuses a recommendation lifetime under a second and a store under a MiB, by name", () => {
    expect(problems({ ...ID, NATS_URL: "n", RECOMMENDATION_TTL_MS: "500" })[0]).toContain("RECOMMENDATION_TTL_MS");
    expect(problems({ ...ID, NATS_URL: "n", RECOMMENDATION_STORE_MAX_BYTES: "1000" })[0]).toContain("RECOMMENDATION_STORE_MAX_BYTES");
  });

  it("bounds what the preferences take: a byte limit of at least a MiB, at most 10,000 agent names per user", () => {
    expect(problems({ ...ID, NATS_URL: "n", AGENT_PREFERENCES_MAX_BYTES: "1000" })[0]).toContain("AGENT_PREFERENCES_MAX_BYTES");
    expect(problems({ ...ID, NATS_URL: "n", AGENT_NAMES_PER_USER_MAX: "10001" })[0]).toContain("AGENT_NAMES_PER_USER_MAX");
    expect(problems({ ...ID, NATS_URL: "n", AGENT_NAMES_PER_USER_MAX: "0" })[0]).toContain("AGENT_NAMES_PER_USER_MAX");
  });

  it("lists every stream and bucket it creates with its byte limit (the deployment checks sum them)", () => {
    const c = loadConfig(configSchema, { ...ID, NATS_URL: "n", AGENT_PREFERENCES_MAX_BYTES: String(64 * 1024 ** 2) });
    expect(jetStreamFootprint(c)).toEqual([
      { kind: "bucket", name: "router_recommendations", maxBytes: 256 * 1024 ** 2 },
      { kind: "bucket", name: "router_preferences", maxBytes: 64 * 1024 ** 2 },
    ]);
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
