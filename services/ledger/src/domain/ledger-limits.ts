// The ledger's limits and defaults: how long records live, how much one page or one reason may hold,
// and how much uncharged vendor work a user may cause a day.

/** Idempotency records live this long from their first claim (Stripe's 24 h). */
export const IDEMPOTENCY_RETENTION_MS = 24 * 60 * 60 * 1000;
export const DEFAULT_LEASE_MS = 60_000;
/**
 * How long past its lease a running execution whose holds have all ended waits before it is marked
 * outcome_unknown: time for an outcome still on its way (a completion, a settlement in the backlog).
 */
export const ABANDON_GRACE_MS = 5 * 60_000;
export const MAX_HOLD_TTL_MS = 60 * 60 * 1000;
export const DEFAULT_USAGE_LIMIT = 20;
export const MAX_USAGE_LIMIT = 100;
/** Longest reason of a credit movement, and longest name an operator gives. */
export const MAX_MOVEMENT_REASON_LENGTH = 500;
export const MAX_OPERATOR_NAME_LENGTH = 200;

/**
 * Per user and UTC day: attempts on direct routes whose vendor may have worked (a timeout, an answer too
 * large to read) and that charged nothing. Generous for honest callers meeting a vendor's bad day, and
 * a ceiling on what a loop of provoked failures can make us pay.
 */
export const DEFAULT_UNCHARGED_DAILY_ALLOWANCE = 50;
