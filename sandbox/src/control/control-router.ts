// HTTP face of the sandbox control (for e2e tests and humans): faults, calls, balances, seller
// knobs, the vendor clock and a reset. Bodies are validated; problems answer 400 {error}.
import express, { type Response, type Router } from "express";
import { isAddress } from "viem";
import { z } from "zod";
import { FAULT_MODES, FaultSpecError } from "./faults";
import type { SandboxControl } from "./sandbox-control";

const faultBody = z.object({
  provider: z.string(),
  mode: z.enum(FAULT_MODES),
  status: z.number().int().optional(),
  delayMs: z.number().int().nonnegative().optional(),
  bytes: z.number().int().positive().optional(),
  count: z.number().int().positive().optional(),
});

const atomic = z.string().regex(/^\d+$/, "must be a decimal string of atomic units");

const x402Body = z
  .object({
    version: z.union([z.literal(1), z.literal(2)]).optional(),
    offerOverrides: z
      .object({ amount: atomic.optional(), asset: z.string().optional(), network: z.string().optional(), extraName: z.string().optional() })
      .strict()
      .optional(),
    prependUnsupportedOffer: z.boolean().optional(),
    settleFailedCalls: z.boolean().optional(),
    failNextSettles: z.number().int().nonnegative().optional(),
    delayNextSettleResponses: z.number().int().nonnegative().optional(),
    settleResponseDelayMs: z.number().int().nonnegative().max(60_000).optional(),
  })
  .strict();

const mppBody = z
  .object({
    challengeTtlSeconds: z.number().int().optional(),
    requestOverrides: z
      .object({
        amount: atomic.optional(),
        currency: z.string().optional(),
        recipient: z.string().optional(),
        chainId: z.number().int().optional(),
        credentialTypes: z.array(z.string()).optional(),
      })
      .strict()
      .optional(),
    prependUnsupportedChallenge: z.boolean().optional(),
    settleFailedCalls: z.boolean().optional(),
  })
  .strict();

function badRequest(res: Response, error: string): void {
  res.status(400).json({ error });
}

export function controlRouter(control: SandboxControl): Router {
  const router = express.Router();
  router.use(express.json({ limit: "64kb" }));

  router.get("/faults", (_req, res) => {
    res.json({ faults: control.faults() });
  });
  router.post("/faults", (req, res) => {
    const parsed = faultBody.safeParse(req.body);
    if (!parsed.success) return badRequest(res, parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
    try {
      control.setFault(parsed.data);
    } catch (err) {
      if (err instanceof FaultSpecError) return badRequest(res, err.message);
      throw err;
    }
    res.json({ faults: control.faults() });
  });
  router.delete("/faults", (req, res) => {
    control.clearFaults(typeof req.query.provider === "string" ? req.query.provider : undefined);
    res.status(204).end();
  });

  router.get("/calls", (req, res) => {
    res.json({ calls: control.calls(typeof req.query.provider === "string" ? req.query.provider : undefined) });
  });
  router.delete("/calls", (_req, res) => {
    control.clearCalls();
    res.status(204).end();
  });

  router.get("/balances/:address", (req, res) => {
    if (!isAddress(req.params.address, { strict: false })) return badRequest(res, "not an address");
    res.json({ address: req.params.address, balanceAtomic: control.balanceOf(req.params.address).toString() });
  });
  router.put("/balances/:address", (req, res) => {
    const parsed = z.object({ balanceAtomic: atomic }).safeParse(req.body);
    if (!isAddress(req.params.address, { strict: false }) || !parsed.success)
      return badRequest(res, 'need an address and {balanceAtomic: "<digits>"}');
    control.setBalance(req.params.address, BigInt(parsed.data.balanceAtomic));
    res.json({ address: req.params.address, balanceAtomic: parsed.data.balanceAtomic });
  });

  router.patch("/x402", (req, res) => {
    const parsed = x402Body.safeParse(req.body);
    if (!parsed.success) return badRequest(res, parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
    const { failNextSettles, delayNextSettleResponses, settleResponseDelayMs, ...knobs } = parsed.data;
    Object.assign(control.x402, knobs);
    if (failNextSettles !== undefined) control.facilitator.failNextSettles = failNextSettles;
    if (delayNextSettleResponses !== undefined) control.facilitator.delayNextSettleResponses = delayNextSettleResponses;
    if (settleResponseDelayMs !== undefined) control.facilitator.settleResponseDelayMs = settleResponseDelayMs;
    const { failNextSettles: fail, delayNextSettleResponses: delayed, settleResponseDelayMs: delayMs } = control.facilitator;
    res.json({ ...control.x402, failNextSettles: fail, delayNextSettleResponses: delayed, settleResponseDelayMs: delayMs });
  });
  router.patch("/mpp", (req, res) => {
    const parsed = mppBody.safeParse(req.body);
    if (!parsed.success) return badRequest(res, parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; "));
    Object.assign(control.mpp, parsed.data);
    res.json(control.mpp);
  });

  router.put("/clock", (req, res) => {
    const parsed = z.object({ at: z.iso.datetime({ offset: true }).nullable() }).safeParse(req.body);
    if (!parsed.success) return badRequest(res, 'need {at: "<ISO 8601 instant>" | null}');
    control.setVendorClock(parsed.data.at === null ? undefined : new Date(parsed.data.at));
    res.json({ at: parsed.data.at });
  });

  router.post("/reset", (_req, res) => {
    control.reset();
    res.status(204).end();
  });
  return router;
}
