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
import { agentmailVendor } from "./vendors/agentmail";
import { apolloVendor } from "./vendors/apollo";
import { ayrshareVendor } from "./vendors/ayrshare";
import { deeplVendor } from "./vendors/deepl";
import { exaVendor } from "./vendors/exa";
import { firecrawlVendor } from "./vendors/firecrawl";
import { openAiCompatibleVendor } from "./vendors/openai-compatible";
import { postmarkVendor } from "./vendors/postmark";
import { resendVendor } from "./vendors/resend";
import { sendgridVendor } from "./vendors/sendgrid";
import { timeapiVendor } from "./vendors/timeapi";

/** API keys the direct mounts accept (timeapi is a free API and takes none). */
export const SANDBOX_API_KEYS = {
  resend: "re_sandbox_key",
  sendgrid: "SG.sandbox.key",
  postmark: "sandbox-postmark-server-token",
  ayrshare: "sandbox-ayrshare-key",
  deepl: "sandbox-deepl-key:fx",
  openai: "sk-sandbox-key",
  agentmail: "am_sandbox_key",
  exa: "exa-sandbox-key",
  firecrawl: "fc-sandbox-key",
  apollo: "apollo-sandbox-key",
  deepseek: "sk-deepseek-sandbox-key",
} as const;

/**
 * What one call costs on the x402 and MPP mounts, in atomic units of sandbox USDC (6 decimals: 1000 =
 * $0.001 = 1 credit); kept at or below the catalog's route prices, which cap what the executor pays.
 * AgentMail's message send costs 2000 (its inbox creation 500000).
 */
export const SANDBOX_PRICES_ATOMIC = {
  resend: "1000",
  sendgrid: "1000",
  postmark: "1500",
  ayrshare: "1000",
  deepl: "25000",
  openai: "1000",
  agentmail: "500000",
  exa: "5000",
  firecrawl: "10000",
  timeapi: "1000",
  deepseek: "2000",
  apollo: "20000",
} as const;

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
  const keys = { ...SANDBOX_API_KEYS, ...opts.apiKeys };
  const prices = SANDBOX_PRICES_ATOMIC;
  const vendorOpts = (key: keyof typeof SANDBOX_API_KEYS) => ({ apiKey: keys[key], priceAtomic: prices[key] });
  const vendors: VendorDefinition[] = [
    resendVendor(vendorOpts("resend")),
    sendgridVendor(vendorOpts("sendgrid")),
    postmarkVendor(vendorOpts("postmark")),
    ayrshareVendor(vendorOpts("ayrshare")),
    deeplVendor(vendorOpts("deepl")),
    openAiCompatibleVendor({ key: "openai", models: ["gpt-4o-mini", "gpt-4o", "gpt-4.1-mini", "gpt-4.1"], ...vendorOpts("openai") }),
    agentmailVendor(vendorOpts("agentmail")),
    exaVendor(vendorOpts("exa")),
    firecrawlVendor(vendorOpts("firecrawl")),
    timeapiVendor(prices.timeapi),
    openAiCompatibleVendor({ key: "deepseek", models: ["deepseek-chat", "deepseek-reasoner"], ...vendorOpts("deepseek") }),
    apolloVendor(vendorOpts("apollo")),
  ];
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
