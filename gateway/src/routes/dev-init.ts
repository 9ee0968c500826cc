// POST /dev/init (development only): creates or tops up a development wallet and describes the
// providers and products it can use. Never mounted in production.
import { Router } from "express";
import { z } from "zod";
import { newId } from "@agentic/platform";
import type { CatalogClient, LedgerClient } from "@agentic/clients";
import { invalidInput } from "../errors";
import { assertJsonBody } from "./body";

export const DEV_DEFAULT_USER = "dev-user";
export const DEV_DEFAULT_CREDITS = 1_000;

const devInitBody = z
  .object({
    userId: z
      .string()
      .trim()
      .min(1)
      .max(128)
      .regex(/^[\w.@:-]+$/, "letters, digits and . _ @ : - only")
      .optional(),
    balanceCredits: z.number().int("must be an integer").min(1, "must be at least 1").max(100_000_000).optional(),
  })
  .strict();

export function devInitRoutes(ledger: LedgerClient, catalog: CatalogClient): Router {
  const router = Router();
  router.post("/dev/init", async (req, res) => {
    assertJsonBody(req);
    const parsed = devInitBody.safeParse(req.body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const field = issue.code === "unrecognized_keys" ? issue.keys.join(", ") : issue.path.join(".") || "body";
      throw invalidInput(field, issue.message, 'Send {"userId"?: string, "balanceCredits"?: integer >= 1}.');
    }
    const userId = parsed.data.userId ?? DEV_DEFAULT_USER;
    const amount = parsed.data.balanceCredits ?? DEV_DEFAULT_CREDITS;
    const [grant, summary] = await Promise.all([
      ledger.grantCredits({ grantId: newId("grant"), userId, amountCredits: amount, reason: "dev_init" }),
      catalog.getCatalogSummary({}),
    ]);
    res.json({
      success: true,
      userId,
      balanceCredits: grant.wallet?.balanceCredits ?? 0,
      credited: grant.creditedCredits,
      providers: summary.providers,
      enabledProviders: summary.enabledProviders,
      products: summary.products.map((p) => ({ productKey: p.productKey, startingPrice: p.startingPriceCredits })),
    });
  });
  return router;
}
