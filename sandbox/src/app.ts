// Builds the provider sandbox: every vendor stand-in three times (`/<vendor>` with its API key,
// `/x402/<vendor>` and `/mpp/<vendor>` behind a payment gate), the x402 facilitator and the
// /_control API. Nothing here listens; see start.ts.
import express, { type Express } from "express";
import { CallLog } from "./control/call-log";
import { controlRouter } from "./control/control-router";
import { FaultTable } from "./control/faults";
import { createSandboxControl, defaultMppKnobs, defaultX402Knobs, type SandboxControl } from "./control/sandbox-control";
import { vendorRouter } from "./http/mount-vendor";
import type { VendorDefinition } from "./http/vendor";
import { facilitatorRouter } from "./payments/facilitator-router";
import { MppPaywall } from "./payments/mpp-paywall";
import { TokenLedger } from "./payments/token-ledger";
import { Facilitator, type FacilitatorKnobs } from "./payments/x402-facilitator";
import { X402Paywall } from "./payments/x402-paywall";
import { SANDBOX_VENDORS } from "./vendors/all-vendors";

type ListedVendor = (typeof SANDBOX_VENDORS)[number];
type KeyedVendor = Extract<ListedVendor, { apiKey: string }>;

/** API keys the direct mounts accept, per vendor (free APIs take none). */
export const SANDBOX_API_KEYS = Object.fromEntries(SANDBOX_VENDORS.flatMap((v) => ("apiKey" in v ? [[v.key, v.apiKey]] : []))) as {
  readonly [V in KeyedVendor as V["key"]]: V["apiKey"];
};

/**
 * What one call costs on the x402 and MPP mounts, in atomic units of sandbox USDC (6 decimals: 1000 =
 * $0.001 = 1 credit); kept at or below the catalog's route prices, which cap what the executor pays.
 */
export const SANDBOX_PRICES_ATOMIC = Object.fromEntries(SANDBOX_VENDORS.map((v) => [v.key, v.priceAtomic])) as {
  readonly [V in ListedVendor as V["key"]]: V["priceAtomic"];
};

export interface SandboxOptions {
  /** Override the keys the direct stand-ins accept. */
  apiKeys?: Partial<Record<keyof typeof SANDBOX_API_KEYS, string>>;
  /** Token balance of a payer the ledger has not seen yet (default 100 USDC). */
  defaultBalanceAtomic?: bigint;
}

export interface Sandbox {
  app: Express;
  control: SandboxControl;
  /** Cancels pending slow-fault waits; the HTTP server is closed by whoever listens. */
  close(): void;
}

export function createSandbox(opts: SandboxOptions = {}): Sandbox {
  const keys: Readonly<Record<string, string | undefined>> = { ...SANDBOX_API_KEYS, ...opts.apiKeys };
  const vendors: VendorDefinition[] = SANDBOX_VENDORS.map((v) => v.create({ apiKey: keys[v.key] ?? "", priceAtomic: v.priceAtomic }));
  const providers = vendors.map((v) => v.key);

  const ledger = new TokenLedger(opts.defaultBalanceAtomic ?? 100_000_000n);
  const facilitatorKnobs: FacilitatorKnobs = { failNextSettles: 0, delayNextSettleResponses: 0, settleResponseDelayMs: 0 };
  const x402Knobs = defaultX402Knobs();
  const mppKnobs = defaultMppKnobs();
  const facilitator = new Facilitator(ledger, facilitatorKnobs);
  const faults = new FaultTable(new Set(providers));
  const calls = new CallLog();
  const clock: { frozen: Date | undefined } = { frozen: undefined };
  const timers = new Set<NodeJS.Timeout>();

  const control = createSandboxControl({
    providers,
    faults,
    calls,
    ledger,
    x402: x402Knobs,
    facilitator: facilitatorKnobs,
    mpp: mppKnobs,
    clock,
  });
  const deps = {
    calls,
    faults,
    gates: { x402: new X402Paywall(facilitator, x402Knobs), mpp: new MppPaywall(ledger, mppKnobs) },
    context: { now: () => clock.frozen ?? new Date() },
    sleep: (ms: number) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          timers.delete(timer);
          resolve();
        }, ms);
        timers.add(timer);
      }),
  };

  const app = express();
  app.disable("x-powered-by");
  app.get("/", (_req, res) => {
    res.json({
      sandbox: "agentic provider sandbox",
      providers: vendors.map((v) => ({
        key: v.key,
        direct: `/${v.key}`,
        x402: `/x402/${v.key}`,
        mpp: `/mpp/${v.key}`,
        priceAtomic: v.price.amountAtomic,
      })),
      facilitator: "/facilitator",
      control: "/_control",
    });
  });
  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.use("/_control", controlRouter(control));
  app.use("/facilitator", facilitatorRouter(facilitator));
  // Every vendor is served on every network, so any (provider, network) route of the catalog has a stand-in.
  for (const vendor of vendors) {
    app.use(`/${vendor.key}`, vendorRouter(vendor, deps, "direct"));
    app.use(`/x402/${vendor.key}`, vendorRouter(vendor, deps, "x402"));
    app.use(`/mpp/${vendor.key}`, vendorRouter(vendor, deps, "mpp"));
  }

  return {
    app,
    control,
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
