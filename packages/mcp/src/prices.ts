// How a tool states a price: credits, their USD value, and what one charge covers.
import type { RouteCatalogEntry } from "@agentic-api/sdk";

/** 1000 credits = 1 USD. */
export const CREDITS_PER_USD = 1000;

export function creditsText(credits: number): string {
  return `${credits} credit${credits === 1 ? "" : "s"}`;
}

export function usd(credits: number): string {
  return `$${(credits / CREDITS_PER_USD).toFixed(3)}`;
}

/** What one charge of `route` buys: per call, per unit of the request, or per token used. */
export function billingText(route: RouteCatalogEntry): string {
  if (route.billing === "per_unit") return `per ${route.billedPer?.unit ?? "unit"}`;
  if (route.billing === "per_token") return "for a reference call of ~1k tokens in and out (charged per token used)";
  return "per call";
}

/** "from 2 credits ($0.002) per call": the cheapest of `routes` (cheapest first), or undefined without one. */
export function startingPrice(routes: readonly RouteCatalogEntry[]): string | undefined {
  const cheapest = routes[0];
  if (!cheapest) return undefined;
  return `from ${creditsText(cheapest.startingCostCredits)} (${usd(cheapest.startingCostCredits)}) ${billingText(cheapest)}`;
}
