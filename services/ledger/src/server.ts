// The ledger's gRPC server: LedgerService and the standard health service, registered but not bound.
import type { Server } from "@grpc/grpc-js";
import { createGrpcServer, guardService, unary, type Health, type Logger, type TokenVerifier } from "@agentic/platform";
import { LedgerServiceService, type LedgerServiceServer } from "@agentic/proto/ledger/v1";
import type { Ledger } from "./domain/ledger";
import { LEDGER_ACCESS } from "./access";
import { authenticateApiKey } from "./rpc/authenticate-api-key";
import { createApiKey } from "./rpc/create-api-key";
import { listApiKeys } from "./rpc/list-api-keys";
import { revokeApiKey } from "./rpc/revoke-api-key";
import { setApiKeyLimits } from "./rpc/set-api-key-limits";
import { getWallet } from "./rpc/get-wallet";
import { grantCredits } from "./rpc/grant-credits";
import { recordCreditMovement } from "./rpc/record-credit-movement";
import { holdCredits } from "./rpc/hold-credits";
import { getHold } from "./rpc/get-hold";
import { listUsage } from "./rpc/list-usage";
import { summarizeUsage } from "./rpc/summarize-usage";
import { listJournal } from "./rpc/list-journal";
import { claimIdempotencyKey } from "./rpc/claim-idempotency-key";
import { claimIdempotencyKeyAndHoldCredits } from "./rpc/claim-idempotency-key-and-hold-credits";
import { completeIdempotencyKey } from "./rpc/complete-idempotency-key";
import { completeExecution } from "./rpc/complete-execution";
import { getExecution } from "./rpc/get-execution";
import { getOwnedResource } from "./rpc/get-owned-resource";
import { getReconciliation } from "./rpc/get-reconciliation";
import { listOutgoingPayments } from "./rpc/list-outgoing-payments";
import { quoteTopUp } from "./rpc/quote-top-up";
import { topUpWithPayment } from "./rpc/top-up-with-payment";
import { listPendingTopUps } from "./rpc/list-pending-top-ups";
import { resolveTopUp } from "./rpc/resolve-top-up";
import { setSpendPolicy } from "./rpc/set-spend-policy";
import { getSpendPolicies } from "./rpc/get-spend-policies";
import { createQuoteHold } from "./rpc/create-quote-hold";
import { getQuoteHold } from "./rpc/get-quote-hold";
import type { TopUps } from "./domain/top-ups";

/** Full name of the service, as health checks and spans name it. */
export const LEDGER_SERVICE_NAME = "agentic.ledger.v1.LedgerService";

export interface LedgerServerDeps {
  ledger: Ledger;
  health: Health;
  logger?: Logger;
  /** Verifies each caller's service token; src/access.ts says who may call which RPC. */
  verifier: TokenVerifier;
  /** APP_ENV is explicitly development or test: development-only callers are allowed. */
  development: boolean;
  /** x402 top-ups (TopUpWithPayment, QuoteTopUp). */
  topUps: TopUps;
}

export function createLedgerServer({ ledger, health, logger, verifier, development, topUps }: LedgerServerDeps): Server {
  const server = createGrpcServer();
  const impl: LedgerServiceServer = {
    authenticateApiKey: unary(authenticateApiKey(ledger), logger),
    createApiKey: unary(createApiKey(ledger), logger),
    listApiKeys: unary(listApiKeys(ledger), logger),
    revokeApiKey: unary(revokeApiKey(ledger), logger),
    setApiKeyLimits: unary(setApiKeyLimits(ledger), logger),
    getWallet: unary(getWallet(ledger), logger),
    grantCredits: unary(grantCredits(ledger), logger),
    recordCreditMovement: unary(recordCreditMovement(ledger), logger), // admin only
    holdCredits: unary(holdCredits(ledger), logger),
    getHold: unary(getHold(ledger), logger),
    listUsage: unary(listUsage(ledger), logger),
    summarizeUsage: unary(summarizeUsage(ledger), logger),
    listJournal: unary(listJournal(ledger), logger),
    claimIdempotencyKey: unary(claimIdempotencyKey(ledger), logger),
    claimIdempotencyKeyAndHoldCredits: unary(claimIdempotencyKeyAndHoldCredits(ledger), logger),
    completeIdempotencyKey: unary(completeIdempotencyKey(ledger), logger),
    completeExecution: unary(completeExecution(ledger), logger),
    getExecution: unary(getExecution(ledger), logger),
    getOwnedResource: unary(getOwnedResource(ledger), logger),
    getReconciliation: unary(getReconciliation(ledger), logger), // admin only
    listOutgoingPayments: unary(listOutgoingPayments(ledger), logger), // admin only
    quoteTopUp: unary(quoteTopUp(topUps), logger),
    topUpWithPayment: unary(topUpWithPayment(topUps), logger),
    listPendingTopUps: unary(listPendingTopUps(ledger), logger), // admin only
    resolveTopUp: unary(resolveTopUp(ledger), logger), // admin only
    setSpendPolicy: unary(setSpendPolicy(ledger), logger), // admin only
    getSpendPolicies: unary(getSpendPolicies(ledger), logger), // admin only
    createQuoteHold: unary(createQuoteHold(ledger), logger),
    getQuoteHold: unary(getQuoteHold(ledger), logger),
  };
  server.addService(
    LedgerServiceService,
    guardService(LedgerServiceService, impl, { table: LEDGER_ACCESS, verifier, development, logger }),
  );
  health.addToServer(server);
  return server;
}
