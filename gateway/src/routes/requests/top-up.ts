// The body of POST /wallet/top-up, declared once: the route parses with it and the document's
// TopUpRequest is built from it. Exactly one amount: a body that is not an object holding exactly one
// of the two, as a number, is refused as a whole (the document: minProperties/maxProperties 1, closed);
// then the amount by its field.
import { z } from "zod";

/** What one top-up may buy: from $0.10 (below that a payment costs more to settle than it is worth) to $1,000. */
export const TOP_UP_LIMITS = { minCredits: 100, maxCredits: 1_000_000 } as const;

/** Credits are thousandths of a USD. */
const CREDITS_PER_USD = 1000;

export const TOP_UP_HINT = `Send {"amountCredits": ${TOP_UP_LIMITS.minCredits}..${TOP_UP_LIMITS.maxCredits}} or {"amountUsd": ${TOP_UP_LIMITS.minCredits / CREDITS_PER_USD}..${TOP_UP_LIMITS.maxCredits / CREDITS_PER_USD}} (1000 credits = 1 USD).`;

const OUT_OF_RANGE = `must buy from ${TOP_UP_LIMITS.minCredits} to ${TOP_UP_LIMITS.maxCredits} credits`;
const EXACTLY_ONE = "must be exactly one of amountCredits or amountUsd";

const amountCredits = z
  .number()
  .int({ error: "must be a whole number of credits" })
  .min(TOP_UP_LIMITS.minCredits, { error: OUT_OF_RANGE })
  .max(TOP_UP_LIMITS.maxCredits, { error: OUT_OF_RANGE })
  .meta({ description: "Credits to buy." });

/** The credits `usd` buys, rounded to the credit. */
export const creditsOfUsd = (usd: number): number => Math.round(usd * CREDITS_PER_USD);

/** Checked as the credits it buys: more decimals than a credit would be money lost to rounding. */
const amountUsd = z
  .number()
  .refine((usd) => usd > 0, { error: "must be positive" })
  .refine((usd) => Math.abs(creditsOfUsd(usd) - usd * CREDITS_PER_USD) <= 1e-6, {
    error: "must have at most 3 decimals (1 credit = 0.001 USD)",
  })
  .refine((usd) => creditsOfUsd(usd) >= TOP_UP_LIMITS.minCredits && creditsOfUsd(usd) <= TOP_UP_LIMITS.maxCredits, {
    error: OUT_OF_RANGE,
  })
  .meta({
    description: "USD to pay, at most 3 decimals.",
    minimum: TOP_UP_LIMITS.minCredits / CREDITS_PER_USD,
    maximum: TOP_UP_LIMITS.maxCredits / CREDITS_PER_USD,
  });

const amounts = z.strictObject({ amountCredits: amountCredits.optional(), amountUsd: amountUsd.optional() });

/** Whether `body` is an object holding exactly one of the amounts, as a (finite) number. */
function holdsOneAmount(body: unknown): boolean {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return false;
  const entries = Object.entries(body);
  return entries.length === 1 && entries[0]![0] in amounts.shape && Number.isFinite(entries[0]![1]);
}

export const topUpBody = z
  .preprocess((body, ctx) => {
    if (!holdsOneAmount(body)) ctx.issues.push({ code: "custom", message: EXACTLY_ONE, input: body });
    return body;
  }, amounts)
  .meta({
    description: "Credits to buy with an x402 payment: exactly one of the two amounts (1000 credits = 1 USD).",
    minProperties: 1,
    maxProperties: 1,
    examples: [{ amountCredits: 5000 }, { amountUsd: 5 }],
  });

/** The fields of topUpBody, by name (what a refusal's field is looked up in). */
export const TOP_UP_FIELDS = amounts.shape;
