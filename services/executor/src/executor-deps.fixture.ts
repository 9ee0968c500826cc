// Test fixture: the ExecutorDeps a domain test starts from: the record format and tracing app.ts
// wires, quiet metrics and logs, short settings, a ledger that holds and completes, and every other
// port unused (a catalog or router call fails the test). A test replaces what it watches.
import { createLogger } from "@agentic/platform";
import type { ExecutionMetrics, ExecutorDeps, LedgerPort } from "./domain/ports";
import { outcomeRecords } from "./ledger-record";
import { createAttemptTracer } from "./tracing";

const notUsed = () => Promise.reject(new Error("not used"));

/** Metrics that count nothing: spread them and replace the one a test counts. */
export const NO_METRICS: ExecutionMetrics = {
  attempt() {},
  holdPlaced() {},
  holdReleased() {},
  creditsCharged() {},
  settlementUnconfirmed() {},
  meteredChargeAnomaly() {},
  railPayment() {},
};

/** The deps with `over` in place; `ledger` replaces only the calls it names. */
export function testDeps({ ledger, ...over }: Partial<Omit<ExecutorDeps, "ledger">> & { ledger?: Partial<LedgerPort> } = {}): ExecutorDeps {
  return {
    catalog: { capability: notUsed },
    router: { recommend: notUsed, getRecommendation: notUsed },
    ledger: {
      holdCredits: async () => ({}) as never,
      getHold: async () => ({}) as never,
      claimIdempotencyKey: notUsed,
      claimIdempotencyKeyAndHoldCredits: notUsed,
      completeExecution: async () => ({}),
      createQuoteHold: notUsed,
      getQuoteHold: notUsed,
      ...ledger,
    },
    records: outcomeRecords,
    bus: { settle: async () => undefined, reportOutcome: () => undefined },
    rails: { get: () => undefined, networks: [] },
    providers: {
      get: () => undefined,
      providerKeys: [],
      resourceFieldsOf: () => [],
      senderFieldsOf: () => [],
      platformSenders: [],
      approvalOf: () => undefined,
    },
    metrics: NO_METRICS,
    tracer: createAttemptTracer(),
    logger: createLogger("executor-test", "silent"),
    settings: {
      providerTimeoutMs: 5_000,
      maxAttempts: 3,
      holdTtlMs: 60_000,
      dependencyDeadlineMs: 1_000,
      idempotencyLeaseMs: 90_000,
      idempotencyWaitMs: 0,
      quoteTtlMs: 300_000,
    },
    traceId: () => undefined,
    ...over,
  };
}
