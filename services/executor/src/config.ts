// Configuration of the executor, read once from the environment: its own port and budgets, the
// addresses of the services it calls, and (spread in) the rails' wallets and the providers' URLs/keys;
// and the settings the domain runs with, taken from it. Defaults suit local development; production
// requires every dependency address.
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
  QUOTA_WINDOWS,
  VENDOR_QUOTA_BUCKET_MAX_BYTES,
  vendorQuotaBucketName,
} from "@agentic/platform";
import { rankingConfigShape } from "@agentic/ranking";
import type { ExecutorSettings } from "./domain/execution";
import { APPROVALS_BUCKET } from "./approvals/kv-approval-store";
import { providersEnvShape } from "./providers";
import { railsEnvShape } from "./rails";

const positiveInt = z.coerce.number().int().positive();

/** Local-development addresses of the dependencies; production must set them. */
const LOCAL_ADDRESSES = { CATALOG_ADDR: "127.0.0.1:50051", LEDGER_ADDR: "127.0.0.1:50054" } as const;

const fields = z.object({
  /** gRPC port. Example: 50053. */
  PORT: portSchema.default(50053),
  /** Port of the Prometheus /metrics endpoint. Example: 9464. Local default 9463. */
  METRICS_PORT: portSchema.default(9463),
  /** development | test | production. */
  APP_ENV: appEnvSchema,
  /** Catalog service, host:port. Example: catalog:50051. Local default 127.0.0.1:50051; required in production. */
  CATALOG_ADDR: addressSchema.optional(),
  /** Ledger service (holds, idempotency records), host:port. Example: ledger:50054. Local default 127.0.0.1:50054; required in production. */
  LEDGER_ADDR: addressSchema.optional(),
  /** NATS_URL, NATS_STREAM_REPLICAS, and NATS user `executor` with its password (deploy/k8s/components/nats/auth.conf; required in production). */
  ...busConfigShape,
  /** pino level: fatal, error, warn, info, debug, trace, silent. */
  LOG_LEVEL: logLevelSchema,
  /** This service's Ed25519 private key (base64 PKCS#8 DER, from a Secret), proving who calls on every gRPC call. `npm start` generates one. */
  SERVICE_IDENTITY_KEY: serviceIdentityKeySchema,
  /** Public keys of the callers it accepts (gateway), `name=<base64 SPKI DER>,...`, from a Secret; src/access.ts says who may call what. */
  TRUSTED_SERVICE_KEYS: trustedServiceKeysSchema,
  /** Deadline of each catalog and ledger call, in ms (capped by the caller's remaining budget). Example: 2000. */
  DEPENDENCY_DEADLINE_MS: positiveInt.default(2_000),
  /** How often the catalog version is checked for changes, in ms. Example: 5000. */
  CATALOG_REFRESH_MS: positiveInt.default(5_000),
  /**
   * The ranking's settings (DEFAULT_PREFERENCES, WEIGHT_DECAY, ..., BREAKER_FAILURES, OUTCOME_REPLAY_MS), as the
   * router reads them: the executor ranks an execute's routes itself (@agentic/ranking), so both must be set alike.
   */
  ...rankingConfigShape,
  /** Deadline of one provider call, payment handshake included, in ms (capped by the caller's budget). Example: 15000. */
  PROVIDER_TIMEOUT_MS: positiveInt.default(15_000),
  /** Provider attempts per execution at most (the first route plus fallbacks). Example: 3. */
  MAX_ATTEMPTS: z.coerce.number().int().min(1).max(10).default(3),
  /** Life of a hold before the ledger releases it unsettled, in ms (max 1 h). Example: 120000. */
  HOLD_TTL_MS: positiveInt.max(3_600_000).default(120_000),
  /** How long a capture or release is re-published (same Nats-Msg-Id) until JetStream acknowledges it, in ms. Example: 10000. */
  SETTLEMENT_PUBLISH_TIMEOUT_MS: positiveInt.default(10_000),
  /** Longest one execute works before its last settlement, in ms: no attempt starts or runs past it (a caller's shorter deadline cuts it shorter). Example: 60000. */
  EXECUTION_BUDGET_MS: positiveInt.min(1_000).default(60_000),
  /** How long a stop (SIGTERM) may take before the process exits anyway, in ms: at least the longest execution and its settlement (see minShutdownDeadlineMs). Example: 90000. */
  SHUTDOWN_DEADLINE_MS: positiveInt.default(90_000),
  /** How long a claimed Idempotency-Key blocks a concurrent duplicate before it may take over, in ms (1 s..15 min). Example: 90000. */
  IDEMPOTENCY_LEASE_MS: positiveInt
    .min(1_000)
    .max(15 * 60_000)
    .default(90_000),
  /** How long a concurrent duplicate waits for the first request's result before IDEMPOTENCY_IN_PROGRESS, in ms. Example: 10000. */
  IDEMPOTENCY_WAIT_MS: z.coerce.number().int().min(0).default(10_000),
  /** How long a quote reserves its price for an execute with its quoteId, in ms (1 s..1 h). Example: 300000. */
  QUOTE_TTL_MS: positiveInt.min(1_000).max(3_600_000).default(300_000),
  /** Most bytes the approvals KV bucket (executor_approvals: broadcast quotes a person approves) holds; the oldest go first. Example: 16777216. */
  APPROVALS_MAX_BYTES: positiveInt.default(16 * 1024 * 1024),
  ...railsEnvShape,
  ...providersEnvShape,
});

type Fields = z.infer<typeof fields>;

type AttemptFields = Pick<
  Fields,
  "MAX_ATTEMPTS" | "PROVIDER_TIMEOUT_MS" | "SETTLEMENT_PUBLISH_TIMEOUT_MS" | "HOLD_TTL_MS" | "EXECUTION_BUDGET_MS"
>;

/**
 * Longest all of one execution's attempts can take, from claiming its Idempotency-Key to its last
 * settlement published: each attempt's provider call (one request: PROVIDER_TIMEOUT_MS; a
 * multi-request vendor flow: up to half a hold's life, within the budget; run-attempts.ts) plus its
 * settlement publish, and never past EXECUTION_BUDGET_MS and its last settlement.
 */
export function allAttemptsMs(c: AttemptFields): number {
  const flowMs = Math.min(c.HOLD_TTL_MS / 2, c.EXECUTION_BUDGET_MS);
  const attemptMs = Math.max(c.PROVIDER_TIMEOUT_MS, flowMs) + c.SETTLEMENT_PUBLISH_TIMEOUT_MS;
  return Math.min(c.MAX_ATTEMPTS * attemptMs, c.EXECUTION_BUDGET_MS + c.SETTLEMENT_PUBLISH_TIMEOUT_MS);
}

// The timings of a stop, derived in this one place from the execution budget. An execution runs its
// attempts within EXECUTION_BUDGET_MS; the last settlement may start just before the budget ends and
// be re-published for SETTLEMENT_PUBLISH_TIMEOUT_MS; then its result is stored (CompleteExecution, up
// to RESULT_STORE_TRIES calls of DEPENDENCY_DEADLINE_MS: before an error is answered, after a success).
// So: SHUTDOWN_DEADLINE_MS >= minShutdownDeadlineMs (checked below); the gateway's EXECUTE_DEADLINE_MS
// > executeAnswerBoundMs; k8s terminationGracePeriodSeconds >= preStop sleep + SHUTDOWN_DEADLINE_MS
// (checked on the rendered manifests by scripts/k8s/shutdown-timing.test.mjs).

/** Tries of CompleteExecution for one result (domain/idempotency.ts `finish`), with their pauses. */
const RESULT_STORE_TRIES = 3;
const RESULT_STORE_PAUSES_MS = 1_000;
/** Room in a stop for what is not an execution: the outcome flush, the NATS drain, the telemetry flush. */
export const SHUTDOWN_MARGIN_MS = 5_000;

type TimingFields = Pick<Fields, "EXECUTION_BUDGET_MS" | "SETTLEMENT_PUBLISH_TIMEOUT_MS" | "DEPENDENCY_DEADLINE_MS">;

/** Longest storing one execution's result takes. */
function resultStoreBoundMs(c: Pick<Fields, "DEPENDENCY_DEADLINE_MS">): number {
  return RESULT_STORE_TRIES * c.DEPENDENCY_DEADLINE_MS + RESULT_STORE_PAUSES_MS;
}

/** Longest one Execute call takes to answer: its budget, its last settlement's publish, its error's stored result. */
export function executeAnswerBoundMs(c: TimingFields): number {
  return c.EXECUTION_BUDGET_MS + c.SETTLEMENT_PUBLISH_TIMEOUT_MS + resultStoreBoundMs(c);
}

/** Shortest stop that lets an execution admitted just before SIGTERM finish: its answer, a success's stored result, the margin. */
export function minShutdownDeadlineMs(c: TimingFields): number {
  return executeAnswerBoundMs(c) + resultStoreBoundMs(c) + SHUTDOWN_MARGIN_MS;
}

export const configSchema = fields
  .superRefine((c, ctx) => {
    checkNatsCredentials(c, ctx);
    if (c.APP_ENV === "production") {
      for (const name of Object.keys(LOCAL_ADDRESSES) as (keyof typeof LOCAL_ADDRESSES)[]) {
        if (c[name] === undefined) ctx.addIssue({ code: "custom", path: [name], message: `${name} is required when APP_ENV=production` });
      }
    }
    // A hold that expired before its capture arrives charges nothing: it must outlive one attempt.
    if (c.HOLD_TTL_MS <= c.PROVIDER_TIMEOUT_MS + c.SETTLEMENT_PUBLISH_TIMEOUT_MS) {
      ctx.addIssue({
        code: "custom",
        path: ["HOLD_TTL_MS"],
        message: "must exceed PROVIDER_TIMEOUT_MS + SETTLEMENT_PUBLISH_TIMEOUT_MS, or a capture could arrive after the hold expired",
      });
    }
    // A lease that ran out mid-execution would let a duplicate run the request a second time.
    if (c.IDEMPOTENCY_LEASE_MS <= allAttemptsMs(c)) {
      ctx.addIssue({
        code: "custom",
        path: ["IDEMPOTENCY_LEASE_MS"],
        message:
          `must exceed the longest run of one execution's attempts, ${allAttemptsMs(c)} ms: MAX_ATTEMPTS x (the longer of ` +
          `PROVIDER_TIMEOUT_MS and a vendor flow's HOLD_TTL_MS / 2, + SETTLEMENT_PUBLISH_TIMEOUT_MS), at most EXECUTION_BUDGET_MS + SETTLEMENT_PUBLISH_TIMEOUT_MS`,
      });
    }
    // A stop shorter than one execution would cut it: the provider acted, nothing is charged, the client reads an error.
    if (c.SHUTDOWN_DEADLINE_MS < minShutdownDeadlineMs(c)) {
      ctx.addIssue({
        code: "custom",
        path: ["SHUTDOWN_DEADLINE_MS"],
        message:
          `must be at least EXECUTION_BUDGET_MS + SETTLEMENT_PUBLISH_TIMEOUT_MS + 2 x (${RESULT_STORE_TRIES} x DEPENDENCY_DEADLINE_MS + ` +
          `${RESULT_STORE_PAUSES_MS}) + ${SHUTDOWN_MARGIN_MS} = ${minShutdownDeadlineMs(c)} ms, or a SIGTERM cuts executions still running`,
      });
    }
  })
  .transform((c) => ({
    ...c,
    CATALOG_ADDR: c.CATALOG_ADDR ?? LOCAL_ADDRESSES.CATALOG_ADDR,
    LEDGER_ADDR: c.LEDGER_ADDR ?? LOCAL_ADDRESSES.LEDGER_ADDR,
  }));

export type Config = z.infer<typeof configSchema>;

/** The settings the execution orchestration runs with. */
export function executionSettings(config: Config): ExecutorSettings {
  return {
    providerTimeoutMs: config.PROVIDER_TIMEOUT_MS,
    maxAttempts: config.MAX_ATTEMPTS,
    holdTtlMs: config.HOLD_TTL_MS,
    dependencyDeadlineMs: config.DEPENDENCY_DEADLINE_MS,
    idempotencyLeaseMs: config.IDEMPOTENCY_LEASE_MS,
    idempotencyWaitMs: config.IDEMPOTENCY_WAIT_MS,
    quoteTtlMs: config.QUOTE_TTL_MS,
  };
}

/**
 * Every stream and bucket the executor creates and its byte limit (the approvals a person gave, the
 * vendor quota counters, one bucket per window length): the deployment checks add them to the other services'.
 */
export function jetStreamFootprint(config: Pick<Config, "APPROVALS_MAX_BYTES">): JetStreamFootprint[] {
  return [
    { kind: "bucket", name: APPROVALS_BUCKET, maxBytes: config.APPROVALS_MAX_BYTES },
    ...QUOTA_WINDOWS.map((window): JetStreamFootprint => ({
      kind: "bucket",
      name: vendorQuotaBucketName(window),
      maxBytes: VENDOR_QUOTA_BUCKET_MAX_BYTES[window],
    })),
  ];
}
