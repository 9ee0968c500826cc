// Turns a vendor definition into an express router with the sandbox pipeline around every call:
// call log → body parsing → payment gate (x402/MPP mounts) or the vendor's own auth (direct mount)
// → injected fault → the vendor's handler → settlement (only when the vendor succeeded) → reply.
import express, { type NextFunction, type Request, type Response, type Router } from "express";
import type { CallLog, CallRecord } from "../control/call-log";
import type { FaultTable } from "../control/faults";
import { hasPaymentProof, type PaymentGate } from "../payments/payment-gate";
import { matchPath, type VendorContext, type VendorDefinition, type VendorMode, type VendorReply, type VendorRequest } from "./vendor";

export interface MountDeps {
  calls: CallLog;
  faults: FaultTable;
  gates: Record<"x402" | "mpp", PaymentGate>;
  context: VendorContext;
  /** Waits `ms`; the sandbox cancels pending waits when it closes. */
  sleep(ms: number): Promise<void>;
}

const CALL = Symbol("call");
type WithCall = Request & { [CALL]?: CallRecord };

/** The network name (the executor's networkKey) of each mount mode, for the call log. */
const NETWORK_OF: Record<VendorMode, CallRecord["network"]> = { direct: "direct", x402: "agentcash", mpp: "mpp" };

/** One mount of a vendor: `direct` checks the vendor's API key, `x402`/`mpp` put a payment gate in front. */
export function vendorRouter(def: VendorDefinition, deps: MountDeps, mode: VendorMode): Router {
  const router = express.Router();
  router.use((req: WithCall, _res, next) => {
    req[CALL] = deps.calls.start({
      provider: def.key,
      network: NETWORK_OF[mode],
      method: req.method,
      path: req.path,
      query: flatQuery(req.query),
      headers: flatHeaders(req.headers),
      body: undefined,
      paymentPresented: hasPaymentProof(flatHeaders(req.headers)),
    });
    next();
  });
  router.use(express.json({ limit: "1mb", type: ["application/json", "application/*+json"] }));
  // OAuth2 token requests (Amadeus) are form-encoded.
  router.use(express.urlencoded({ extended: false, limit: "1mb" }));
  router.use(async (req: WithCall, res, next) => {
    try {
      await handle(def, deps, mode, req, res);
    } catch (err) {
      next(err);
    }
  });
  // Bad JSON (and any handler bug) still answers in the vendor's own error format.
  router.use((err: unknown, req: WithCall, res: Response, _next: NextFunction) => {
    const parseFailed = (err as { type?: string }).type === "entity.parse.failed";
    send(
      res,
      req[CALL],
      def.errorReply(parseFailed ? 400 : 500, parseFailed ? "Request body is not valid JSON." : "Internal server error."),
    );
  });
  return router;
}

async function handle(def: VendorDefinition, deps: MountDeps, mode: VendorMode, req: WithCall, res: Response): Promise<void> {
  const call = req[CALL];
  if (call) call.body = req.body;
  const match = def.routes.flatMap((route) => {
    const params = route.method === req.method ? matchPath(route.path, req.path) : undefined;
    return params ? [{ route, params }] : [];
  })[0];
  if (!match) return send(res, call, def.errorReply(404, `Route ${req.method} ${req.path} not found.`));
  const { route } = match;
  const vreq: VendorRequest = {
    method: req.method,
    path: req.path,
    query: flatQuery(req.query),
    params: match.params,
    headers: flatHeaders(req.headers),
    body: req.body,
  };

  let settle: ((reply: VendorReply) => Promise<{ reply: VendorReply; settled: boolean }>) | undefined;
  if (mode !== "direct") {
    const host = req.get("host") ?? "localhost";
    const price = route.priceAtomic ? { ...def.price, amountAtomic: route.priceAtomic } : def.price;
    const gate = await deps.gates[mode].check({ req: vreq, price, host, resourceUrl: `${req.protocol}://${host}${req.originalUrl}` });
    if (gate.kind === "reply") return send(res, call, gate.reply);
    settle = gate.settle;
  } else {
    const denied = def.authenticate?.(vreq);
    if (denied) return send(res, call, denied);
  }

  const fault = deps.faults.take(def.key);
  if (fault?.mode === "timeout") return; // never answer: the client's deadline (or the sandbox closing) ends it
  if (fault?.mode === "slow") await deps.sleep(fault.delayMs);

  // A faulty reply goes through the payment gate's settle like the vendor's own would.
  let reply: VendorReply;
  if (fault?.mode === "fail" || fault?.mode === "5xx") reply = def.errorReply(fault.status, "Injected fault.");
  else if (fault?.mode === "garbage") reply = { status: 200, body: { sandbox: "an answer this vendor never sends" } };
  else if (fault?.mode === "oversize") reply = { status: 200, body: "x".repeat(fault.bytes) };
  else reply = await route.handle(vreq, deps.context);
  if (settle) {
    const settled = await settle(reply);
    reply = settled.reply;
    if (call) call.settled = settled.settled;
  }
  send(res, call, reply);
}

function send(res: Response, call: CallRecord | undefined, reply: VendorReply): void {
  if (res.headersSent) return;
  if (call) call.status = reply.status;
  res.status(reply.status);
  for (const [name, value] of Object.entries(reply.headers ?? {})) res.setHeader(name, value);
  if (reply.body === undefined) {
    res.end();
  } else if (typeof reply.body === "string") {
    res.type(reply.contentType ?? "text/plain; charset=utf-8").send(reply.body);
  } else if (Buffer.isBuffer(reply.body)) {
    res.type(reply.contentType ?? "application/octet-stream").send(reply.body);
  } else {
    res.type(reply.contentType ?? "application/json; charset=utf-8").send(JSON.stringify(reply.body));
  }
}

function flatHeaders(headers: Request["headers"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(", ") : v;
  return out;
}

function flatQuery(query: Request["query"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query)) if (typeof v === "string") out[k] = v;
  return out;
}
