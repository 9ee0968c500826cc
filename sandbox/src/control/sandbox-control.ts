// The programmatic control surface of a sandbox (also served over HTTP under /_control): faults,
// the call log, token balances, the payment sellers' test knobs and the vendors' clock.
import type { CallLog, CallRecord } from "./call-log";
import type { FaultSpec, FaultTable } from "./faults";
import type { FacilitatorKnobs } from "../payments/x402-facilitator";
import type { MppKnobs } from "../payments/mpp-paywall";
import type { TokenLedger } from "../payments/token-ledger";
import type { X402Knobs } from "../payments/x402-paywall";

export interface SandboxControl {
  /** Provider keys (vendor path prefixes) the sandbox serves. */
  readonly providers: readonly string[];
  setFault(spec: FaultSpec): void;
  /** Clears one provider's fault, or all faults. */
  clearFaults(provider?: string): void;
  faults(): ReturnType<FaultTable["list"]>;
  /** Calls received, in order, optionally of one provider. */
  calls(provider?: string): CallRecord[];
  clearCalls(): void;
  /** Balance of an address on the sandbox token, in atomic units (6 decimals). */
  balanceOf(address: string): bigint;
  setBalance(address: string, atomic: bigint): void;
  /** Mutable knobs of the x402 seller. */
  readonly x402: X402Knobs;
  /** Mutable knobs of the x402 facilitator. */
  readonly facilitator: FacilitatorKnobs;
  /** Mutable knobs of the MPP seller. */
  readonly mpp: MppKnobs;
  /** Freezes the vendors' clock (time answers, timestamps); undefined returns to real time. Payments always use real time. */
  setVendorClock(at: Date | undefined): void;
  /** Clears faults, calls, knobs and the vendor clock (balances are kept). */
  reset(): void;
}

export interface ControlParts {
  providers: readonly string[];
  faults: FaultTable;
  calls: CallLog;
  ledger: TokenLedger;
  x402: X402Knobs;
  facilitator: FacilitatorKnobs;
  mpp: MppKnobs;
  clock: { frozen: Date | undefined };
}

export function defaultX402Knobs(): X402Knobs {
  return { version: 2, offerOverrides: {}, prependUnsupportedOffer: false, settleFailedCalls: false };
}

export function defaultMppKnobs(): MppKnobs {
  return { challengeTtlSeconds: 300, requestOverrides: {}, prependUnsupportedChallenge: false, settleFailedCalls: false };
}

export function createSandboxControl(p: ControlParts): SandboxControl {
  return {
    providers: p.providers,
    setFault: (spec) => p.faults.set(spec),
    clearFaults: (provider) => p.faults.clear(provider),
    faults: () => p.faults.list(),
    calls: (provider) => p.calls.list(provider),
    clearCalls: () => p.calls.clear(),
    balanceOf: (address) => p.ledger.balanceOf(address),
    setBalance: (address, atomic) => p.ledger.setBalance(address, atomic),
    x402: p.x402,
    facilitator: p.facilitator,
    mpp: p.mpp,
    setVendorClock(at) {
      p.clock.frozen = at;
    },
    reset() {
      p.faults.clear();
      p.calls.clear();
      Object.assign(p.x402, defaultX402Knobs());
      Object.assign(p.mpp, defaultMppKnobs());
      p.facilitator.failNextSettles = 0;
      p.facilitator.delayNextSettleResponses = 0;
      p.facilitator.settleResponseDelayMs = 0;
      p.clock.frozen = undefined;
    },
  };
}
