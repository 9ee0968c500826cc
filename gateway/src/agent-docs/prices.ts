// How the agent instructions state a price: credits, their USD value, and what one charge covers.
import type { SnapshotRoute } from "./snapshot";

/** 1000 credits = 1 USD. */
export const CREDITS_PER_USD = 1000;

export function creditsText(credits: number): string {
  return `${credits} credit${credits === 1 ? "" : "s"}`;
}

export function usd(credits: number): string {
  return `$${(credits / CREDITS_PER_USD).toFixed(3)}`;
}

/** What one charge of `route` buys: per call, per unit of the request, or per token used. */
export function billingText(route: SnapshotRoute): string {
  if (route.billing === "per_unit") return `per ${route.unit ?? "unit"}`;
  if (route.billing === "per_token") return "per token (reference call of ~1k tokens in and out)";
  return "per call";
}

/** "from 2 credits ($0.002) per call": the cheapest executable route of a capability. */
export function startingPrice(routes: SnapshotRoute[]): string {
  const cheapest = routes[0];
  if (!cheapest) return "no executable route now";
  return `from ${creditsText(cheapest.priceCredits)} (${usd(cheapest.priceCredits)}) ${billingText(cheapest)}`;
}
