// Configuration of the router service, read once from the environment, and the settings the domain
// takes from it. Defaults suit local development; the scoring and health knobs are documented in README.md.
import { z } from "zod";
import {
  addressSchema,
  appEnvSchema,
  checkNatsCredentials,
  busConfigShape,
  portSchema,
  logLevelSchema,
  serviceIdentityKeySchema,
  trustedServiceKeysSchema,
  type JetStreamFootprint,
} from "@agentic/platform";
import { PREFERENCES_BUCKET, RECOMMENDATIONS_BUCKET, rankingConfigShape } from "@agentic/ranking";

const positiveInt = z.coerce.number().int().positive();

/** Local-development addresses of the dependencies; production must set them. */
const LOCAL_ADDRESSES = { CATALOG_ADDR: "127.0.0.1:50051", LEDGER_ADDR: "127.0.0.1:50054" } as const;

const fields = z.object({
  /** gRPC port. Example: 50052. */
  PORT: portSchema.default(50052),
  /** Port of the Prometheus /metrics endpoint. Example: 9464. Local default 9462. */
  METRICS_PORT: portSchema.default(9462),
  /** development | test | production. */
  APP_ENV: appEnvSchema,
  /** Catalog service, host:port. Example: catalog:50051. Local default 127.0.0.1:50051; required in production. */
  CATALOG_ADDR: addressSchema.optional(),
  /** Ledger service (wallet reads), host:port. Example: ledger:50054. Local default 127.0.0.1:50054; required in production. */
  LEDGER_ADDR: addressSchema.optional(),
  /** NATS_URL, NATS_STREAM_REPLICAS, and NATS user `router` with its password (deploy/k8s/components/nats/auth.conf; required in production). */
  ...busConfigShape,
  /** pino level: fatal, error, warn, info, debug, trace, silent. */
  LOG_LEVEL: logLevelSchema,
  /** This service's Ed25519 private key (base64 PKCS#8 DER, from a Secret), proving who calls on every gRPC call. `npm start` generates one. */
  SERVICE_IDENTITY_KEY: serviceIdentityKeySchema,
  /** Public keys of the callers it accepts (gateway, executor), `name=<base64 SPKI DER>,...`, from a Secret; src/access.ts says who may call what. */
  TRUSTED_SERVICE_KEYS: trustedServiceKeysSchema,
  /** Deadline of each catalog and ledger call, in ms (capped by the caller's remaining budget). */
  DEPENDENCY_DEADLINE_MS: positiveInt.default(2_000),
  /** How often the catalog version is checked for changes, in ms. */
  CATALOG_REFRESH_MS: positiveInt.default(5_000),

  /** How long an agent's last explicit preferences are remembered after it last gave them, in ms (shared KV `router_preferences`). */
  AGENT_PREFERENCES_TTL_MS: positiveInt.default(30 * 86_400_000),
  /** Most bytes the remembered preferences take in NATS (oldest dropped first when full), e.g. 268435456 (256 MiB). */
  AGENT_PREFERENCES_MAX_BYTES: positiveInt.min(1024 ** 2).default(256 * 1024 ** 2),
  /**
   * Most distinct agent names whose preferences are remembered per user at once, e.g. 1000; one more is
   * refused (AGENT_NAMES_EXHAUSTED) until a name goes unused for AGENT_PREFERENCES_TTL_MS. Bounds what
   * free recommends can store, so they cannot crowd out the EXECUTIONS stream in JetStream storage.
   */
  AGENT_NAMES_PER_USER_MAX: positiveInt.max(10_000).default(1_000),
  /** How long an answered recommendation stays usable by its recommendationId, in ms (shared KV `router_recommendations`). */
  RECOMMENDATION_TTL_MS: positiveInt.min(1_000).default(10 * 60_000),
  /** Most bytes the stored recommendations take in NATS (oldest dropped first when full), e.g. 268435456 (256 MiB). */
  RECOMMENDATION_STORE_MAX_BYTES: positiveInt.min(1024 ** 2).default(256 * 1024 ** 2),
  /**
   * Most GetWallet answers the router keeps, per (user, key, agent), dropped when the ledger announces a
   * change of the user's wallet (ledger.wallet.changed), e.g. 10000; 0 reads the wallet on every recommend.
   */
  WALLET_CACHE_MAX_ENTRIES: z.coerce.number().int().min(0).max(1_000_000).default(10_000),
  /**
   * Longest a cached wallet answer is served, in ms, e.g. 10000: how long a lost announcement (a ledger
   * that crashed between its commit and its publish) can leave one stale. Shorter when a spend period resets sooner.
   */
  WALLET_CACHE_MAX_AGE_MS: positiveInt.max(300_000).default(10_000),
  /** The ranking's settings (DEFAULT_PREFERENCES, WEIGHT_DECAY, ..., BREAKER_FAILURES, OUTCOME_REPLAY_MS): the executor ranks too and reads the same ones. */
  ...rankingConfigShape,
});

export const configSchema = fields
  .superRefine((c, ctx) => {
    checkNatsCredentials(c, ctx);
    if (c.APP_ENV !== "production") return;
    for (const name of Object.keys(LOCAL_ADDRESSES) as (keyof typeof LOCAL_ADDRESSES)[]) {
      if (c[name] === undefined) ctx.addIssue({ code: "custom", path: [name], message: `${name} is required when APP_ENV=production` });
    }
  })
  .transform((c) => ({
    ...c,
    CATALOG_ADDR: c.CATALOG_ADDR ?? LOCAL_ADDRESSES.CATALOG_ADDR,
    LEDGER_ADDR: c.LEDGER_ADDR ?? LOCAL_ADDRESSES.LEDGER_ADDR,
  }));

export type Config = z.infer<typeof configSchema>;

/**
 * Every stream and bucket the router creates and its byte limit: the deployment checks
 * (scripts/k8s/validate.mjs) add them to the other services' and keep the sum below the NATS
 * server's max_file_store, so none can take the EXECUTIONS stream's room.
 */
export function jetStreamFootprint(
  config: Pick<Config, "RECOMMENDATION_STORE_MAX_BYTES" | "AGENT_PREFERENCES_MAX_BYTES">,
): JetStreamFootprint[] {
  return [
    { kind: "bucket", name: RECOMMENDATIONS_BUCKET, maxBytes: config.RECOMMENDATION_STORE_MAX_BYTES },
    { kind: "bucket", name: PREFERENCES_BUCKET, maxBytes: config.AGENT_PREFERENCES_MAX_BYTES },
  ];
}
