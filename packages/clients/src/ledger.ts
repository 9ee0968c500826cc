// Promise-returning client of the ledger service; every call has a deadline.
import { channelReady, createClient, promisifyUnary, type CallIdentity } from "@agentic/platform";
import { LedgerServiceClient } from "@agentic/proto/ledger/v1";

export type LedgerClient = ReturnType<typeof createLedgerClient>;

/** Opens one long-lived channel to the ledger at `address` (host:port); `identity` proves the calling service on every call. */
export function createLedgerClient(address: string, deadlineMs = 2_000, identity?: CallIdentity) {
  const client = createClient(LedgerServiceClient, address, identity);
  return {
    authenticateApiKey: promisifyUnary(client, client.authenticateApiKey, deadlineMs),
    createApiKey: promisifyUnary(client, client.createApiKey, deadlineMs),
    listApiKeys: promisifyUnary(client, client.listApiKeys, deadlineMs),
    revokeApiKey: promisifyUnary(client, client.revokeApiKey, deadlineMs),
    setApiKeyLimits: promisifyUnary(client, client.setApiKeyLimits, deadlineMs),
    getWallet: promisifyUnary(client, client.getWallet, deadlineMs),
    grantCredits: promisifyUnary(client, client.grantCredits, deadlineMs),
    recordCreditMovement: promisifyUnary(client, client.recordCreditMovement, deadlineMs),
    holdCredits: promisifyUnary(client, client.holdCredits, deadlineMs),
    getHold: promisifyUnary(client, client.getHold, deadlineMs),
    listUsage: promisifyUnary(client, client.listUsage, deadlineMs),
    summarizeUsage: promisifyUnary(client, client.summarizeUsage, deadlineMs),
    listJournal: promisifyUnary(client, client.listJournal, deadlineMs),
    claimIdempotencyKey: promisifyUnary(client, client.claimIdempotencyKey, deadlineMs),
    claimIdempotencyKeyAndHoldCredits: promisifyUnary(client, client.claimIdempotencyKeyAndHoldCredits, deadlineMs),
    completeIdempotencyKey: promisifyUnary(client, client.completeIdempotencyKey, deadlineMs),
    completeExecution: promisifyUnary(client, client.completeExecution, deadlineMs),
    getExecution: promisifyUnary(client, client.getExecution, deadlineMs),
    getOwnedResource: promisifyUnary(client, client.getOwnedResource, deadlineMs),
    getReconciliation: promisifyUnary(client, client.getReconciliation, deadlineMs),
    listOutgoingPayments: promisifyUnary(client, client.listOutgoingPayments, deadlineMs),
    quoteTopUp: promisifyUnary(client, client.quoteTopUp, deadlineMs),
    listPendingTopUps: promisifyUnary(client, client.listPendingTopUps, deadlineMs),
    resolveTopUp: promisifyUnary(client, client.resolveTopUp, deadlineMs),
    topUpWithPayment: promisifyUnary(client, client.topUpWithPayment, deadlineMs),
    createQuoteHold: promisifyUnary(client, client.createQuoteHold, deadlineMs),
    getQuoteHold: promisifyUnary(client, client.getQuoteHold, deadlineMs),
    setSpendPolicy: promisifyUnary(client, client.setSpendPolicy, deadlineMs),
    getSpendPolicies: promisifyUnary(client, client.getSpendPolicies, deadlineMs),
    /** Resolves once the channel is connected (rejects after `deadlineMs`). */
    ready: (deadlineMs: number) => channelReady(client, deadlineMs),
    close: () => client.close(),
  };
}
