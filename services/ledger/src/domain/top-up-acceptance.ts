// The one rule of every way money comes in (POST /wallet/top-up, and the payment riding on a 402
// execute): the requirements a payment echoes (`accepted`) must be exactly what the platform offers
// for their amount (requirementsFor) — no field added, none changed, whatever the payer's client
// sends — and so must the requirements a caller relays, when it relays any. What is then verified and
// settled is the platform's own offer, never terms the payer wrote.
import { sameJson } from "./top-up-payment";
import { creditsOfRequirements, requirementsFor, type Requirements, type TopUpTerms } from "./top-up-terms";

/** Why a payment's terms are refused: not what the platform offers, or not what the caller relayed. */
export interface TopUpTermsRefusal {
  reason: "requirements_not_offered" | "accepted_mismatch";
  problem: string;
}

export function acceptedTopUp(
  terms: TopUpTerms,
  accepted: unknown,
  relayed?: unknown,
): { credits: number; requirements: Requirements } | TopUpTermsRefusal {
  const asked = relayed ?? accepted;
  const checked = creditsOfRequirements(terms, asked);
  if ("problem" in checked) return { reason: "requirements_not_offered", problem: checked.problem };
  const offered = requirementsFor(terms, checked.credits);
  if (!sameJson(asked, offered))
    return { reason: "requirements_not_offered", problem: `${differingField(asked, offered)} is not the platform's offer` };
  if (!sameJson(accepted, offered)) return { reason: "accepted_mismatch", problem: describeMismatch(accepted, offered) };
  return { credits: checked.credits, requirements: offered };
}

/** The first field of `given` that is not `offered`'s, an added one included (`extra.assetTransferMethod`). */
function differingField(given: unknown, offered: unknown, path = ""): string {
  const g = (typeof given === "object" && given !== null ? given : {}) as Record<string, unknown>;
  const o = (typeof offered === "object" && offered !== null ? offered : {}) as Record<string, unknown>;
  for (const field of new Set([...Object.keys(g), ...Object.keys(o)])) {
    if (sameJson(g[field], o[field])) continue;
    const nested = typeof g[field] === "object" && g[field] !== null && typeof o[field] === "object" && o[field] !== null;
    return nested ? differingField(g[field], o[field], `${path}${field}.`) : `${path}${field}`;
  }
  return path ? path.slice(0, -1) : "the requirements";
}

/** Which term of the echoed requirements differs from the offered ones (an underpayment names the amounts). */
function describeMismatch(accepted: unknown, offered: Requirements): string {
  const a = (typeof accepted === "object" && accepted !== null ? accepted : {}) as Record<string, unknown>;
  if (a.amount !== offered.amount) return `the payment is for ${String(a.amount)} atomic units, the top-up asks ${offered.amount}`;
  return `accepted.${differingField(a, offered)} differs from the requirements`;
}
