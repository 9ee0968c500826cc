// Who may call each LedgerService RPC: the one table, checked on every call against the caller's
// verified identity (packages/platform/src/grpc/access.ts). An RPC missing here is refused to
// everyone, and test/integration/access.test.ts fails until it gets its line: adding an RPC is
// adding one line here. Money is minted (GrantCredits) and keys are issued only by `admin`, the
// identity of the keys CLI and operators, which no pod holds in production.
import { devOnly, type AccessTable } from "@agentic/platform";

export const LEDGER_ACCESS: AccessTable = {
  // The edge: API-key checks and the caller's own wallet, usage and executions.
  AuthenticateApiKey: ["gateway"],
  GetWallet: ["gateway", "router"],
  // The gateway: the caller's own usage; admin: an operator's export (npm run ledger -- usage export).
  ListUsage: ["gateway", "admin"],
  // The gateway: the caller's own spend summed (GET /usage/summary).
  SummarizeUsage: ["gateway"],
  GetExecution: ["gateway", "executor"],
  // The executor: holds (credits move only through holds settled on the bus) and idempotency records.
  HoldCredits: ["executor"],
  GetHold: ["executor"],
  ClaimIdempotencyKey: ["executor"],
  ClaimIdempotencyKeyAndHoldCredits: ["executor"],
  CompleteIdempotencyKey: ["executor"],
  CompleteExecution: ["executor"],
  // One user's vendor resource (an inbox bought through email.inbox.buy), checked by the executor before it uses it.
  GetOwnedResource: ["executor"],
  // Money in: the gateway relays a user's x402 payment; the ledger verifies and settles it with the
  // facilitator itself and credits only what was paid to the platform, so the gateway cannot mint.
  QuoteTopUp: ["gateway"],
  TopUpWithPayment: ["gateway"],
  // Pending top-ups without evidence of the transfer: an operator lists them and credits or fails each, with a reason.
  ListPendingTopUps: ["admin"],
  ResolveTopUp: ["admin"],
  // Admin only. The gateway may grant only while the ledger runs with APP_ENV=development or test
  // (explicitly set), for POST /dev/init; in production no pod can mint credits.
  GrantCredits: ["admin", devOnly("gateway")],
  // An operator's grant, refund or adjustment: money moves, so admin only.
  RecordCreditMovement: ["admin"],
  CreateApiKey: ["admin"],
  ListApiKeys: ["admin"],
  RevokeApiKey: ["admin"],
  // A key's own request limits, which the gateway enforces: key management, so admin only.
  SetApiKeyLimits: ["admin"],
  // Spend policies of a key or of an agent under it: key management, so admin only.
  SetSpendPolicy: ["admin"],
  GetSpendPolicies: ["admin"],
  // Quotes: the executor reserves a quoted price and reads the quote back when it is executed.
  CreateQuoteHold: ["executor"],
  GetQuoteHold: ["executor"],
  ListJournal: ["admin"],
  GetReconciliation: ["admin"],
  ListOutgoingPayments: ["admin"],
};
