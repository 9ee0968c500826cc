// POST /wallet/top-up: an agent buys credits with an x402 payment. Without PAYMENT-SIGNATURE the
// answer is a 402 whose PAYMENT-REQUIRED offers exactly the credits asked for; with one, the ledger
// verifies, settles and credits it (once per payment: a replay credits nothing and answers the first
// result) and the answer carries PAYMENT-RESPONSE and the new balance.
import { Router, type RequestHandler } from "express";
import { z } from "zod";
import type { LedgerClient } from "@agentic/clients";
import { AppError } from "@agentic/platform";
import { HttpError, invalidInput } from "../errors";
import { assertJsonBody } from "./body";
import { parseHeaders } from "../http/request-schema";
import { paymentHeaders } from "./requests/headers";
import { quoteTopUp, refusedPayment, setChallenge, setPaymentResponse, topUp } from "../payments/x402";

/** What one top-up may buy: from $0.10 (below that a payment costs more to settle than it is worth) to $1,000. */
export const TOP_UP_LIMITS = { minCredits: 100, maxCredits: 1_000_000 } as const;

const BODY_HINT = `Send {"amountCredits": ${TOP_UP_LIMITS.minCredits}..${TOP_UP_LIMITS.maxCredits}} or {"amountUsd": ${TOP_UP_LIMITS.minCredits / 1000}..${TOP_UP_LIMITS.maxCredits / 1000}} (1000 credits = 1 USD).`;

const topUpBody = z.union([
  z.object({ amountCredits: z.number().int("must be a whole number of credits") }).strict(),
  z.object({ amountUsd: z.number().positive("must be positive") }).strict(),
]);

/** The credits a body asks for, within TOP_UP_LIMITS; anything else is a 400 naming the field. */
export function parseTopUpCredits(body: unknown): number {
  const parsed = topUpBody.safeParse(body ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues.find((i) => i.path.length > 0) ?? parsed.error.issues[0]!;
    throw invalidInput(
      issue.path.join(".") || "body",
      issue.path.length ? issue.message : "must be exactly one of amountCredits or amountUsd",
      BODY_HINT,
    );
  }
  let credits: number;
  let field: string;
  if ("amountCredits" in parsed.data) {
    credits = parsed.data.amountCredits;
    field = "amountCredits";
  } else {
    // Credits are thousandths of a USD: more decimals than that would be money lost to rounding.
    credits = Math.round(parsed.data.amountUsd * 1000);
    field = "amountUsd";
    if (Math.abs(credits - parsed.data.amountUsd * 1000) > 1e-6)
      throw invalidInput(field, "must have at most 3 decimals (1 credit = 0.001 USD)", BODY_HINT);
  }
  if (credits < TOP_UP_LIMITS.minCredits || credits > TOP_UP_LIMITS.maxCredits) {
    throw invalidInput(field, `must buy from ${TOP_UP_LIMITS.minCredits} to ${TOP_UP_LIMITS.maxCredits} credits`, BODY_HINT);
  }
  return credits;
}

export function topUpRoutes(ledger: LedgerClient, auth: RequestHandler): Router {
  const router = Router();
  router.post("/wallet/top-up", auth, async (req, res) => {
    assertJsonBody(req);
    const credits = parseTopUpCredits(req.body);
    const signature = parseHeaders(paymentHeaders, req)["PAYMENT-SIGNATURE"];
    const { userId } = res.locals.caller;
    const requirements = await quoteTopUp(ledger, credits);
    if (!requirements) {
      throw new AppError("unavailable", "TOP_UP_UNAVAILABLE", "This API takes no payments for credits.", "Ask the operator for credits.");
    }
    const description = `${credits} credits for the wallet of ${userId}`;
    if (signature === undefined) {
      setChallenge(req, res, requirements, "PAYMENT-SIGNATURE header is required", description);
      throw new HttpError(
        402,
        "PAYMENT_REQUIRED",
        `Buying ${credits} credits costs ${(credits / 1000).toFixed(3)} USD, paid with x402.`,
        "Pay the requirements of PAYMENT-REQUIRED and send the same request with PAYMENT-SIGNATURE (any x402 v2 client does this).",
      );
    }
    try {
      const r = await topUp(ledger, userId, signature, requirements);
      setPaymentResponse(res, r.settlementJson);
      res.json({
        success: true,
        userId,
        topUpId: r.topUpId,
        amountCredits: r.amountCredits,
        creditedCredits: r.creditedCredits,
        replayed: r.replayed,
        balanceCredits: r.wallet?.balanceCredits ?? 0,
      });
    } catch (err) {
      const refused = refusedPayment(err);
      if (refused) {
        setChallenge(req, res, requirements, refused.reason, description);
        if (refused.settlement) setPaymentResponse(res, refused.settlement);
      }
      throw err;
    }
  });
  return router;
}
