// The ledger's configuration, read once from the environment and validated (every problem is
// reported at once). Defaults serve local development; production names its real dependencies.
import { z } from "zod";
import {
  DEFAULT_STREAM_KEEP_MS,
  DEFAULT_STREAM_MAX_BYTES,
  EXECUTIONS_STREAM,
  checkNatsCredentials,
  devHelpersEnabled,
  explicitAppEnvSchema,
  natsCredentialsShape,
  portSchema,
  logLevelSchema,
  streamReplicasSchema,
  trustedServiceKeysSchema,
  type JetStreamFootprint,
} from "@agentic/platform";
import { STORE_IDENTITY_BUCKET, STORE_IDENTITY_MAX_BYTES } from "./bus/store-identity";
import { API_KEY_PATTERN } from "./domain/api-keys";
import { KNOWN_USDC, topUpTerms, type TopUpTerms } from "./domain/top-up-terms";

/** Top-ups default to Base Sepolia (the sandbox's chain) in development and test only: elsewhere the network is named. */
export const DEFAULT_TOP_UP_NETWORK = "eip155:84532";

/**
 * Networks whose tokens have no value (test chains): accepted only where APP_ENV says development or
 * test explicitly, so a deployment that forgets APP_ENV never sells credits for testnet tokens.
 */
export const TESTNET_TOP_UP_NETWORKS: ReadonlySet<string> = new Set([DEFAULT_TOP_UP_NETWORK]);

export interface BootstrapApiKey {
  apiKey: string;
  userId: string;
}

/** Parses `aak_...:user1,aak_...:user2` (a user id may itself contain ':'; the first ':' splits). */
export const apiKeysSchema = z
  .string()
  .default("")
  .transform((raw, ctx): BootstrapApiKey[] => {
    const pairs: BootstrapApiKey[] = [];
    raw
      .split(",")
      .map((s) => s.trim())
      .filter(Boolean)
      .forEach((pair, i) => {
        const at = pair.indexOf(":");
        const apiKey = at < 0 ? pair : pair.slice(0, at);
        const userId = at < 0 ? "" : pair.slice(at + 1).trim();
        if (!API_KEY_PATTERN.test(apiKey) || !userId) {
          // Never echo the key itself into logs or error output.
          ctx.addIssue({
            code: "custom",
            message: `entry ${i + 1} must be key:userId with a key of the form aak_ + 32..128 base62 characters`,
          });
          return;
        }
        pairs.push({ apiKey, userId });
      });
    return pairs;
  });

/** The database of the ledger_* collections when MONGODB_DB is unset (also the migrations' default). */
export const DEFAULT_MONGODB_DB = "agentic";

export const configSchema = z
  .object({
    /** gRPC port of LedgerService and health, e.g. `50051` in the cluster; 50054 for local runs. */
    PORT: portSchema.default(50054),
    /** Port of the Prometheus /metrics endpoint, e.g. `9464` (also the local default). */
    METRICS_PORT: portSchema.default(9464),
    /** pino level, e.g. `info`. */
    LOG_LEVEL: logLevelSchema,
    /** NATS with JetStream, e.g. `nats://nats:4222` (comma-separated for a cluster). */
    NATS_URL: z.string({ error: "required, e.g. nats://127.0.0.1:4222" }).min(1, "required, e.g. nats://127.0.0.1:4222"),
    /** Copies of the EXECUTIONS stream, e.g. `3` on a 3-node JetStream cluster; default 1. */
    NATS_STREAM_REPLICAS: streamReplicasSchema,
    /**
     * Byte limit of the EXECUTIONS stream, e.g. `4294967296` (4 GiB); default 1 GiB. When full, new
     * publishes are refused (the executor answers SETTLEMENT_UNCONFIRMED) and nothing stored is dropped.
     * Keep it below the NATS server's max_file_store; the ledger sets it on the stream.
     */
    NATS_STREAM_MAX_BYTES: z.coerce
      .number()
      .int()
      .min(1024 ** 2)
      .max(1024 ** 4)
      .default(DEFAULT_STREAM_MAX_BYTES),
    /**
     * How long the EXECUTIONS stream keeps a message it no longer needs, in ms, e.g. `3600000` (1 h,
     * the default): at least the router's OUTCOME_REPLAY_MS. Unapplied settlements stay regardless.
     */
    NATS_STREAM_KEEP_MS: z.coerce
      .number()
      .int()
      .min(60_000)
      .max(7 * 86_400_000)
      .default(DEFAULT_STREAM_KEEP_MS),
    /** NATS user `ledger` and its password (deploy/k8s/components/nats/auth.conf); required in production. */
    ...natsCredentialsShape,
    /**
     * `production` makes MongoDB the default store and refuses LEDGER_STORE=memory (SQLite in memory), e.g. `production`.
     * Only an explicit `development` or `test` lets the gateway grant credits (POST /dev/init; see
     * src/access.ts); unset is treated as neither production nor development.
     */
    APP_ENV: explicitAppEnvSchema,
    /**
     * Public keys of the services allowed to call, e.g. `gateway=MCow...,router=MCow...,executor=MCow...,admin=MCow...`
     * (base64 SPKI DER, Ed25519; from a Secret). Every call must carry a token signed by one of them;
     * src/access.ts says which may call what. `npm start` generates a set at every start.
     */
    TRUSTED_SERVICE_KEYS: trustedServiceKeysSchema,
    /**
     * Where the money is kept, e.g. `sqlite`. `sqlite`: one durable file on this machine (the default
     * outside production; ledgers sharing it must run on the same machine). `mongodb`: a replica set,
     * for replicas on several machines (the default when APP_ENV=production). `memory`: the SQLite
     * store in memory, no file, for tests only; every balance is lost on restart, so APP_ENV=production refuses it.
     */
    LEDGER_STORE: z.enum(["sqlite", "mongodb", "memory"]).optional(),
    /**
     * The SQLite file when the store is sqlite, e.g. `/var/lib/agentic/ledger.sqlite`; a relative path
     * is relative to the process's working directory, and missing directories are created. In a
     * container, point it at a mounted volume (the image's own files are read-only).
     */
    LEDGER_SQLITE_PATH: z.string().min(1).default("./data/ledger.sqlite"),
    /** MongoDB replica set (transactions need one), e.g. `mongodb://mongo-0,mongo-1,mongo-2/?replicaSet=rs0`. */
    MONGODB_URI: z.string().optional(),
    /** Database holding the ledger_* collections, e.g. `agentic`. */
    MONGODB_DB: z.string().min(1).default(DEFAULT_MONGODB_DB),
    /** Keys registered at start in every mode, e.g. `aak_<32+ base62>:dev-user,aak_<...>:ci`; idempotent. */
    AGENTIC_API_KEYS: apiKeysSchema,
    /** Default lifetime of an unsettled hold in ms, e.g. `120000` (2 minutes). */
    HOLD_TTL_MS: z.coerce.number().int().min(1).max(3_600_000).default(120_000),
    /** How often the sweeper looks for expired holds, in ms, e.g. `5000`. */
    EXPIRY_SWEEP_INTERVAL_MS: z.coerce.number().int().min(10).max(600_000).default(5_000),
    /** Settlement messages handled at once by this replica, e.g. `16`. */
    SETTLEMENT_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
    /**
     * Attempts per user and UTC day that may end uncharged after the vendor may have worked on our own
     * key (a provoked timeout, an answer too large to read); past it holds are refused with 429
     * UNCHARGED_FAILURES_LIMITED until the next UTC day, e.g. `50`.
     */
    UNCHARGED_DAILY_ALLOWANCE: z.coerce.number().int().min(1).max(100_000).default(50),
    /**
     * How long past its lease a running execution whose holds have all ended waits before it is
     * marked outcome_unknown (nothing charged), in ms, e.g. `300000` (5 minutes): time for its answer
     * to arrive from the bus first.
     */
    EXECUTION_ABANDON_GRACE_MS: z.coerce.number().int().min(0).max(86_400_000).default(300_000),
    /**
     * x402 facilitator that verifies and settles top-up payments, e.g. `https://x402.org/facilitator`
     * (`npm start`: the sandbox's). With TOP_UP_PAY_TO it turns top-ups on; without both, none are taken.
     */
    TOP_UP_FACILITATOR_URL: z.url().optional(),
    /** The platform's receiving address of top-ups, e.g. `0x2Fe5b450cd7Ec8347d9d9D6D726b4cfe1d46D5f5`. */
    TOP_UP_PAY_TO: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, "must be an EVM address")
      .optional(),
    /**
     * CAIP-2 network of top-ups, e.g. `eip155:8453` (Base). Default `eip155:84532` (Base Sepolia, a testnet)
     * only when APP_ENV is development or test; elsewhere (production, or APP_ENV unset) it is required and
     * a testnet is refused.
     */
    TOP_UP_NETWORK: z.enum(Object.keys(KNOWN_USDC) as [string, ...string[]]).optional(),
    /** Token of top-ups, e.g. `0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913`; default and only choice today: the network's USDC. */
    TOP_UP_ASSET: z
      .string()
      .regex(/^0x[0-9a-fA-F]{40}$/, "must be a token address")
      .optional(),
    /** Cut-off of each facilitator call in ms, e.g. `10000`; a settle without an answer stays pending and is asked again. */
    TOP_UP_FACILITATOR_TIMEOUT_MS: z.coerce.number().int().min(100).max(120_000).default(10_000),
    /** Most credits one payment may buy, e.g. `1000000` ($1,000). */
    TOP_UP_MAX_CREDITS: z.coerce.number().int().min(1).max(1_000_000_000).default(1_000_000),
    /** Validity a 402 asks of a payer's authorization (x402 maxTimeoutSeconds), e.g. `300`. */
    TOP_UP_MAX_TIMEOUT_SECONDS: z.coerce.number().int().min(10).max(3_600).default(300),
  })
  .superRefine((config, ctx) => {
    checkNatsCredentials(config, ctx);
    if ((config.TOP_UP_FACILITATOR_URL === undefined) !== (config.TOP_UP_PAY_TO === undefined)) {
      ctx.addIssue({
        code: "custom",
        path: ["TOP_UP_PAY_TO"],
        message: "TOP_UP_FACILITATOR_URL and TOP_UP_PAY_TO turn top-ups on together: set both or neither",
      });
    }
    if (config.TOP_UP_PAY_TO !== undefined && !devHelpersEnabled(config.APP_ENV)) {
      const where = config.APP_ENV === undefined ? "when APP_ENV is not set" : `with APP_ENV=${config.APP_ENV}`;
      if (config.TOP_UP_NETWORK === undefined) {
        ctx.addIssue({
          code: "custom",
          path: ["TOP_UP_NETWORK"],
          message: `required ${where} when top-ups are on (the default is a testnet), e.g. eip155:8453`,
        });
      } else if (TESTNET_TOP_UP_NETWORKS.has(config.TOP_UP_NETWORK)) {
        ctx.addIssue({
          code: "custom",
          path: ["TOP_UP_NETWORK"],
          message: `${config.TOP_UP_NETWORK} is a testnet: its tokens buy no credits ${where} (only with APP_ENV=development or test); use a mainnet, e.g. eip155:8453`,
        });
      }
    }
    const usdc = KNOWN_USDC[config.TOP_UP_NETWORK ?? DEFAULT_TOP_UP_NETWORK];
    if (config.TOP_UP_ASSET !== undefined && config.TOP_UP_ASSET.toLowerCase() !== usdc?.address.toLowerCase()) {
      ctx.addIssue({ code: "custom", path: ["TOP_UP_ASSET"], message: `must be the USDC of the top-up network (${usdc?.address})` });
    }
    if (config.APP_ENV === "production" && config.LEDGER_STORE === "memory") {
      ctx.addIssue({
        code: "custom",
        path: ["LEDGER_STORE"],
        message: "memory is for tests only and loses every balance on restart; APP_ENV=production needs mongodb (the default) or sqlite",
      });
    }
    if (ledgerStoreKind(config) === "mongodb" && !config.MONGODB_URI) {
      ctx.addIssue({
        code: "custom",
        path: ["MONGODB_URI"],
        message: "required when the store is mongodb (LEDGER_STORE=mongodb, or APP_ENV=production without LEDGER_STORE=sqlite)",
      });
    }
  });

export type Config = z.infer<typeof configSchema>;

/**
 * Every stream and bucket the ledger creates and its byte limit: the deployment checks
 * (scripts/k8s/validate.mjs) add them to the other services' and keep the sum below the NATS
 * server's max_file_store, so the EXECUTIONS stream's room is never taken by another.
 */
export function jetStreamFootprint(config: Pick<Config, "NATS_STREAM_MAX_BYTES">): JetStreamFootprint[] {
  return [
    { kind: "stream", name: EXECUTIONS_STREAM, maxBytes: config.NATS_STREAM_MAX_BYTES },
    { kind: "bucket", name: STORE_IDENTITY_BUCKET, maxBytes: STORE_IDENTITY_MAX_BYTES },
  ];
}

/** The store in use: LEDGER_STORE when set, else mongodb in production and sqlite elsewhere. */
export function ledgerStoreKind(config: Pick<Config, "LEDGER_STORE" | "APP_ENV">): "sqlite" | "mongodb" | "memory" {
  return config.LEDGER_STORE ?? (config.APP_ENV === "production" ? "mongodb" : "sqlite");
}

/** x402 top-ups: the platform's terms and the facilitator that verifies and settles payments. */
export interface TopUpSettings {
  terms: TopUpTerms;
  facilitatorUrl: string;
  /** Each facilitator call is cut off after this; a settle without an answer leaves its top-up pending. */
  facilitatorTimeoutMs: number;
}

/** What the ledger runs with, besides its connections: startLedgerApp takes these. */
export interface LedgerSettings {
  /** Copies of the EXECUTIONS stream (NATS_STREAM_REPLICAS; default 1). */
  streamReplicas?: number;
  /** Byte limit of the EXECUTIONS stream (NATS_STREAM_MAX_BYTES; default 1 GiB). */
  streamMaxBytes?: number;
  /** How long the EXECUTIONS stream keeps what no consumer needs any more, in ms (NATS_STREAM_KEEP_MS; default 1 h). */
  streamKeepMs?: number;
  /** APP_ENV is explicitly development or test (development-only callers are then allowed). */
  development: boolean;
  /** Default lifetime of an unsettled hold, in ms (HOLD_TTL_MS). */
  holdTtlMs: number;
  /** How often the sweeper looks for expired holds, in ms (EXPIRY_SWEEP_INTERVAL_MS). */
  sweepIntervalMs: number;
  /** How long past its lease a running execution with no held hold waits before it is marked outcome_unknown (default 5 min). */
  abandonGraceMs?: number;
  /** Keys registered at start (AGENTIC_API_KEYS). */
  apiKeys?: BootstrapApiKey[];
  /** Settlement messages handled at once (SETTLEMENT_CONCURRENCY; default 16). */
  settlementConcurrency?: number;
  /** Uncharged outcomes of vendor work on our keys per user and UTC day (UNCHARGED_DAILY_ALLOWANCE; default 50). */
  unchargedDailyAllowance?: number;
  /** Takes x402 top-ups (TOP_UP_*); without it TopUpWithPayment answers TOP_UP_UNAVAILABLE. */
  topUp?: TopUpSettings;
}

/** The ledger's settings from its parsed configuration. */
export function ledgerSettings(config: Config): LedgerSettings {
  const topUp = topUpSettings(config);
  return {
    streamReplicas: config.NATS_STREAM_REPLICAS,
    streamMaxBytes: config.NATS_STREAM_MAX_BYTES,
    streamKeepMs: config.NATS_STREAM_KEEP_MS,
    development: devHelpersEnabled(config.APP_ENV),
    holdTtlMs: config.HOLD_TTL_MS,
    sweepIntervalMs: config.EXPIRY_SWEEP_INTERVAL_MS,
    abandonGraceMs: config.EXECUTION_ABANDON_GRACE_MS,
    apiKeys: config.AGENTIC_API_KEYS,
    settlementConcurrency: config.SETTLEMENT_CONCURRENCY,
    unchargedDailyAllowance: config.UNCHARGED_DAILY_ALLOWANCE,
    ...(topUp ? { topUp } : {}),
  };
}

/** The top-up settings, when top-ups are on (TOP_UP_FACILITATOR_URL and TOP_UP_PAY_TO). */
export function topUpSettings(config: Config): TopUpSettings | undefined {
  if (!config.TOP_UP_FACILITATOR_URL || !config.TOP_UP_PAY_TO) return undefined;
  return {
    terms: topUpTerms({
      network: config.TOP_UP_NETWORK ?? DEFAULT_TOP_UP_NETWORK,
      payTo: config.TOP_UP_PAY_TO,
      ...(config.TOP_UP_ASSET ? { asset: config.TOP_UP_ASSET } : {}),
      maxTimeoutSeconds: config.TOP_UP_MAX_TIMEOUT_SECONDS,
      maxCredits: config.TOP_UP_MAX_CREDITS,
    }),
    facilitatorUrl: config.TOP_UP_FACILITATOR_URL,
    facilitatorTimeoutMs: config.TOP_UP_FACILITATOR_TIMEOUT_MS,
  };
}
