import { ConfigError, loadConfig } from "@agentic/platform";
import { testIdentities } from "@agentic/testing";
import { configSchema, jetStreamFootprint, ledgerSettings, ledgerStoreKind } from "./config";
import { generateApiKey } from "./domain/api-keys";

const load = (env: Record<string, string>) =>
  loadConfig(configSchema, { NATS_URL: "nats://127.0.0.1:4222", TRUSTED_SERVICE_KEYS: testIdentities().trustedKeys, ...env });

describe("ledger config", () => {
  it("has local defaults", () => {
    const config = load({});
    expect(config).toMatchObject({
      PORT: 50054,
      LEDGER_SQLITE_PATH: "./data/ledger.sqlite",
      MONGODB_DB: "agentic",
      AGENTIC_API_KEYS: [],
      HOLD_TTL_MS: 120_000,
    });
    expect(ledgerStoreKind(config)).toBe("sqlite");
    // Unset is neither production nor development: no development-only caller (src/access.ts).
    expect(config.APP_ENV).toBeUndefined();
  });

  it("chooses sqlite, mongodb or memory with LEDGER_STORE outside production", () => {
    expect(ledgerStoreKind(load({ LEDGER_STORE: "sqlite", LEDGER_SQLITE_PATH: "/var/lib/agentic/ledger.sqlite" }))).toBe("sqlite");
    expect(ledgerStoreKind(load({ LEDGER_STORE: "memory" }))).toBe("memory");
    expect(ledgerStoreKind(load({ LEDGER_STORE: "mongodb", MONGODB_URI: "mongodb://db/?replicaSet=rs0" }))).toBe("mongodb");
    expect(() => load({ LEDGER_STORE: "mongodb" })).toThrow(/MONGODB_URI/);
    expect(() => load({ LEDGER_STORE: "postgres" })).toThrow(/LEDGER_STORE/);
    expect(() => load({ LEDGER_SQLITE_PATH: "" })).toThrow(/LEDGER_SQLITE_PATH/);
  });

  it("uses MongoDB in production, which then needs MONGODB_URI; sqlite may be chosen there, memory never", () => {
    const prod = { APP_ENV: "production", NATS_USER: "ledger", NATS_PASSWORD: "pw" };
    expect(() => load({ ...prod })).toThrow(/MONGODB_URI: required when the store is mongodb/);
    expect(ledgerStoreKind(load({ ...prod, MONGODB_URI: "mongodb://db/?replicaSet=rs0" }))).toBe("mongodb");
    expect(ledgerStoreKind(load({ ...prod, LEDGER_STORE: "sqlite" }))).toBe("sqlite");
    // Memory would lose every balance on restart: refused in production, with the reason.
    expect(() => load({ ...prod, LEDGER_STORE: "memory", MONGODB_URI: "mongodb://db/?replicaSet=rs0" })).toThrow(
      /LEDGER_STORE: memory is for tests only and loses every balance on restart/,
    );
  });

  it("parses AGENTIC_API_KEYS pairs and never echoes a bad key", () => {
    const [a, b] = [generateApiKey(), generateApiKey()];
    expect(load({ AGENTIC_API_KEYS: `${a}:alice, ${b}:team:bob ,` }).AGENTIC_API_KEYS).toEqual([
      { apiKey: a, userId: "alice" },
      { apiKey: b, userId: "team:bob" },
    ]);
    const secret = "aak_notlongenough";
    try {
      load({ AGENTIC_API_KEYS: `${secret}:alice,${a}` });
      throw new Error("expected a ConfigError");
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      expect((err as ConfigError).problems).toHaveLength(2);
      expect(String(err)).not.toContain(secret);
      expect(String(err)).not.toContain(a);
    }
  });

  it("reads the NATS user: both or neither, both in production", () => {
    expect(load({ NATS_USER: "ledger", NATS_PASSWORD: "pw" })).toMatchObject({ NATS_USER: "ledger", NATS_PASSWORD: "pw" });
    expect(() => load({ NATS_USER: "ledger" })).toThrow(/NATS_PASSWORD: required with NATS_USER/);
    expect(() => load({ NATS_PASSWORD: "pw" })).toThrow(/NATS_USER: required with NATS_PASSWORD/);
    expect(() => load({ APP_ENV: "production", LEDGER_STORE: "sqlite" })).toThrow(
      /NATS_USER and NATS_PASSWORD are required when APP_ENV=production/,
    );
  });

  it("requires TRUSTED_SERVICE_KEYS: without it every call would be refused", () => {
    expect(() => loadConfig(configSchema, { NATS_URL: "nats://127.0.0.1:4222" })).toThrow(/TRUSTED_SERVICE_KEYS: required/);
  });

  it("reads NATS_STREAM_REPLICAS (default 1, 1..5)", () => {
    expect(load({}).NATS_STREAM_REPLICAS).toBe(1);
    expect(load({ NATS_STREAM_REPLICAS: "3" }).NATS_STREAM_REPLICAS).toBe(3);
    expect(() => load({ NATS_STREAM_REPLICAS: "0" })).toThrow(/NATS_STREAM_REPLICAS/);
  });

  it("reads the EXECUTIONS stream's byte limit (default 1 GiB) and keep window (default 1 h, at least a minute)", () => {
    expect(load({})).toMatchObject({ NATS_STREAM_MAX_BYTES: 1024 ** 3, NATS_STREAM_KEEP_MS: 3_600_000 });
    expect(ledgerSettings(load({ NATS_STREAM_MAX_BYTES: "4294967296", NATS_STREAM_KEEP_MS: "600000" }))).toMatchObject({
      streamMaxBytes: 4 * 1024 ** 3,
      streamKeepMs: 600_000,
    });
    expect(() => load({ NATS_STREAM_MAX_BYTES: "1000" })).toThrow(/NATS_STREAM_MAX_BYTES/);
    expect(() => load({ NATS_STREAM_KEEP_MS: "0" })).toThrow(/NATS_STREAM_KEEP_MS/);
  });

  it("reports every problem at once", () => {
    const err = (() => {
      try {
        loadConfig(configSchema, { PORT: "99999", HOLD_TTL_MS: "soon" });
      } catch (e) {
        return e as ConfigError;
      }
      throw new Error("expected a ConfigError");
    })();
    expect(err.problems.map((p) => p.split(":")[0]).sort()).toEqual(["HOLD_TTL_MS", "NATS_URL", "PORT", "TRUSTED_SERVICE_KEYS"]);
  });

  it("turns the configuration into the ledger's settings (top-ups only with a facilitator and a receiving address)", () => {
    expect(ledgerSettings(load({}))).toEqual({
      streamReplicas: 1,
      streamMaxBytes: 1024 ** 3,
      streamKeepMs: 3_600_000,
      development: false,
      holdTtlMs: 120_000,
      sweepIntervalMs: 5_000,
      abandonGraceMs: 300_000,
      apiKeys: [],
      settlementConcurrency: 16,
      unchargedDailyAllowance: 50,
    });
    expect(ledgerSettings(load({ APP_ENV: "test" })).development).toBe(true);
    const payTo = "0x2Fe5b450cd7Ec8347d9d9D6D726b4cfe1d46D5f5";
    const facilitatorUrl = "http://127.0.0.1:4021/facilitator";
    expect(
      ledgerSettings(load({ APP_ENV: "development", TOP_UP_FACILITATOR_URL: facilitatorUrl, TOP_UP_PAY_TO: payTo })).topUp,
    ).toMatchObject({
      terms: { network: "eip155:84532", payTo, maxCredits: 1_000_000, maxTimeoutSeconds: 300 },
      facilitatorUrl,
      facilitatorTimeoutMs: 10_000,
    });
  });

  it("takes top-ups on a testnet only with APP_ENV=development or test; elsewhere the network is named and a mainnet", () => {
    const topUps = { TOP_UP_FACILITATOR_URL: "https://x402.org/facilitator", TOP_UP_PAY_TO: "0x2Fe5b450cd7Ec8347d9d9D6D726b4cfe1d46D5f5" };
    const prod = { APP_ENV: "production", NATS_USER: "ledger", NATS_PASSWORD: "pw", LEDGER_STORE: "sqlite" };
    for (const appEnv of ["development", "test"]) {
      expect(ledgerSettings(load({ ...topUps, APP_ENV: appEnv })).topUp?.terms.network).toBe("eip155:84532");
      expect(ledgerSettings(load({ ...topUps, APP_ENV: appEnv, TOP_UP_NETWORK: "eip155:84532" })).topUp?.terms.network).toBe(
        "eip155:84532",
      );
    }
    // Production, and an APP_ENV nobody set: no default network, and a testnet is refused with the reason.
    expect(() => load({ ...topUps, ...prod })).toThrow(/TOP_UP_NETWORK: required with APP_ENV=production when top-ups are on/);
    expect(() => load({ ...topUps, ...prod, TOP_UP_NETWORK: "eip155:84532" })).toThrow(
      /TOP_UP_NETWORK: eip155:84532 is a testnet: its tokens buy no credits with APP_ENV=production/,
    );
    expect(() => load({ ...topUps })).toThrow(/TOP_UP_NETWORK: required when APP_ENV is not set when top-ups are on/);
    expect(() => load({ ...topUps, TOP_UP_NETWORK: "eip155:84532" })).toThrow(
      /TOP_UP_NETWORK: eip155:84532 is a testnet: its tokens buy no credits when APP_ENV is not set/,
    );
    expect(ledgerSettings(load({ ...topUps, ...prod, TOP_UP_NETWORK: "eip155:8453" })).topUp?.terms.network).toBe("eip155:8453");
    expect(ledgerSettings(load({ ...topUps, TOP_UP_NETWORK: "eip155:8453" })).topUp?.terms.network).toBe("eip155:8453");
    // Without top-ups nothing about a network is asked.
    expect(ledgerSettings(load({ ...prod })).topUp).toBeUndefined();
  });

  it("lists every stream and bucket it creates with its byte limit (the deployment checks sum them)", () => {
    expect(jetStreamFootprint(load({ NATS_STREAM_MAX_BYTES: String(4 * 1024 ** 3) }))).toEqual([
      { kind: "stream", name: "EXECUTIONS", maxBytes: 4 * 1024 ** 3 },
      { kind: "bucket", name: "ledger_store", maxBytes: 1024 ** 2 },
    ]);
  });
});
