// POST /dev/init (development only): creates or tops up a development wallet and describes the
// providers and products it can use. Never mounted in production.
import { Router } from "express";
import { newId } from "@agentic/platform";
import type { CatalogClient, LedgerClient } from "@agentic/clients";
import { parseBody } from "../http/request-schema";
import { DEV_DEFAULT_CREDITS, DEV_DEFAULT_USER, DEV_INIT_HINT, devInitBody } from "./requests/dev-init";
import { assertJsonBody } from "./body";

export function devInitRoutes(ledger: LedgerClient, catalog: CatalogClient): Router {
  const router = Router();
  router.post("/dev/init", async (req, res) => {
    assertJsonBody(req);
    const body = parseBody(devInitBody, req.body, { hint: DEV_INIT_HINT });
    const userId = body.userId ?? DEV_DEFAULT_USER;
    const amount = body.balanceCredits ?? DEV_DEFAULT_CREDITS;
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
