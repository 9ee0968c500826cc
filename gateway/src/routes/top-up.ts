// POST /wallet/top-up: an agent buys credits with an x402 payment. Without PAYMENT-SIGNATURE the
// answer is a 402 whose PAYMENT-REQUIRED offers exactly the credits asked for; with one, the ledger
// verifies, settles and credits it (once per payment: a replay credits nothing and answers the first
// result) and the answer carries PAYMENT-RESPONSE and the new balance.
import { Router, type RequestHandler } from "express";
import type { LedgerClient } from "@agentic/clients";
import { AppError } from "@agentic/platform";
import { HttpError } from "../errors";
import { assertJsonBody } from "./body";
import { parseBody, parseHeaders } from "../http/request-schema";
import { creditsOfUsd, TOP_UP_FIELDS, TOP_UP_HINT, topUpBody } from "./requests/top-up";
import { paymentHeaders } from "./requests/headers";
import { quoteTopUp, refusedPayment, setChallenge, setPaymentResponse, topUp } from "../payments/x402";

/** The credits a body asks for (requests/top-up.ts), within TOP_UP_LIMITS; anything else is a 400 naming the field. */
export function parseTopUpCredits(body: unknown): number {
  const amount = parseBody(topUpBody, body, { hint: TOP_UP_HINT, shape: TOP_UP_FIELDS });
  return amount.amountCredits ?? creditsOfUsd(amount.amountUsd!);
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
