// The normalized answer of enrichment.email.verify, the same whichever vendor checked the address:
// `result` is what a sender should do with it (deliverable, undeliverable, risky: catch-all or
// disposable, unknown: the mail server did not say), with the signals behind it (null when the
// vendor does not report one).
export type DeliverabilityResult = "deliverable" | "undeliverable" | "risky" | "unknown";

export interface EmailVerification {
  email: string;
  result: DeliverabilityResult;
  /** The vendor's own status word, e.g. `valid`, `catch-all`, `accept_all`. */
  vendorStatus: string;
  catchAll: boolean | null;
  disposable: boolean | null;
  freeEmail: boolean | null;
  mxFound: boolean | null;
  /** The vendor's 0-100 confidence, when it gives one. */
  score: number | null;
  /** A likely correction of a misspelt domain, when the vendor suggests one. */
  didYouMean: string | null;
}
