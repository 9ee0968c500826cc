// The caller's spend policies as recommend weighs them (read from the ledger's GetWallet with the
// balance): whether a route's price would be refused by one now, and the step that would lift it.
// The ledger enforces them in its hold; this only says so ahead of an execute. They are the policies
// of the calling key (the request's key_id, which the gateway sets) and of the named agent; a caller
// that names no key gets those of all the user's keys.

/** One policy's room this period. */
export interface SpendLimit {
  /** Whose policy: "key key_1", or "key key_1 (agent alpha)". */
  owner: string;
  /** What the budget has left this period; undefined without a budget. */
  remainingCredits?: number | undefined;
  /** Most credits one execution may cost; undefined without a maximum. */
  maxPriceCredits?: number | undefined;
  /** Per-capability room this period. */
  caps: readonly { capabilityKey: string; remainingCredits?: number | undefined; remainingCount?: number | undefined }[];
  /** When the period resets (ISO 8601); undefined for a one-off allowance. */
  resetsAt?: string | undefined;
}

const RAISE = "or ask the key's owner to raise it (npm run keys -- policy)";

/** The step that would let a route of `priceCredits` run under `limits`, or undefined when none refuses it. */
export function spendLimitAction(
  routeKey: string,
  priceCredits: number,
  capabilityKey: string,
  limits: readonly SpendLimit[],
): string | undefined {
  for (const l of limits) {
    const until = l.resetsAt ? `until ${l.resetsAt}` : "for good (a one-off allowance)";
    const wait = l.resetsAt ? `wait until ${l.resetsAt}, ` : "";
    if (l.maxPriceCredits !== undefined && priceCredits > l.maxPriceCredits)
      return `Route ${routeKey} costs ${priceCredits} credits, above the ${l.maxPriceCredits} credits per execution the spend policy of ${l.owner} allows; execute a cheaper route, ${RAISE}`;
    if (l.remainingCredits !== undefined && priceCredits > l.remainingCredits)
      return `The spend policy of ${l.owner} has ${l.remainingCredits} credits left ${until}; route ${routeKey} costs ${priceCredits}: ${wait}execute a cheaper route, ${RAISE}`;
    const cap = l.caps.find((c) => c.capabilityKey === capabilityKey);
    if (cap?.remainingCount !== undefined && cap.remainingCount < 1)
      return `The spend policy of ${l.owner} allows no more executions of ${capabilityKey} ${until}: ${wait}${RAISE}`;
    if (cap?.remainingCredits !== undefined && priceCredits > cap.remainingCredits)
      return `The spend policy of ${l.owner} has ${cap.remainingCredits} credits left for ${capabilityKey} ${until}; route ${routeKey} costs ${priceCredits}: ${wait}execute a cheaper route, ${RAISE}`;
  }
  return undefined;
}
