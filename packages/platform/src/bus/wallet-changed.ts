// The ledger's "wallet changed" announcements: core NATS (not stored, nothing to replay), one
// WalletChanged (agentic.events.v1) per committed operation that may change a user's GetWallet answer.
// The ledger alone publishes them and the router alone reads them (deploy/k8s/components/nats/auth.conf).

/** WalletChanged (agentic.events.v1), published by the ledger after the commit, read by the router's wallet cache. */
export const SUBJECT_WALLET_CHANGED = "ledger.wallet.changed";
