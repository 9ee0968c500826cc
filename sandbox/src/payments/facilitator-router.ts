// The facilitator's HTTP API (x402 standard): GET /supported, POST /verify, POST /settle.
import express, { type Router } from "express";
import type { Facilitator } from "./x402-facilitator";
import type { FacilitatorRequest } from "./x402-types";

export function facilitatorRouter(facilitator: Facilitator): Router {
  const router = express.Router();
  router.use(express.json({ limit: "256kb" }));
  router.get("/supported", (_req, res) => {
    res.json(facilitator.supported());
  });
  for (const op of ["verify", "settle"] as const) {
    router.post(`/${op}`, async (req, res) => {
      const body = req.body as Partial<FacilitatorRequest> | undefined;
      if (!body || typeof body !== "object" || body.paymentPayload === undefined || body.paymentRequirements === undefined) {
        res.status(400).json({ error: "body must be {x402Version, paymentPayload, paymentRequirements}" });
        return;
      }
      res.json(
        op === "verify" ? await facilitator.verify(body as FacilitatorRequest) : await facilitator.settle(body as FacilitatorRequest),
      );
    });
  }
  return router;
}
