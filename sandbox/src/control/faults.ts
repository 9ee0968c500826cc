// Fault injection per vendor: the next N calls (or all, until cleared) fail, answer 5xx, are slow,
// never answer, answer 200 with a body the vendor never sends (`garbage`) or with a huge body
// (`oversize`). Faults act where the vendor does its work, i.e. after any payment gate: a paid call
// that gets `garbage` or `oversize` is settled like any 200.

export const FAULT_MODES = ["fail", "5xx", "slow", "timeout", "garbage", "oversize", "ok"] as const;

/** Size of an `oversize` answer when the spec gives none: above any client's sane limit. */
export const DEFAULT_OVERSIZE_BYTES = 8 * 1024 * 1024;
export type FaultMode = (typeof FAULT_MODES)[number];

/** A fault as set through the control API. `ok` clears the provider's fault. */
export interface FaultSpec {
  provider: string;
  mode: FaultMode;
  /** Status of `fail` (default 400) or `5xx` (default 503) answers. */
  status?: number;
  /** Delay of `slow` answers in ms (default 2000). */
  delayMs?: number;
  /** Body size of `oversize` answers in bytes (default DEFAULT_OVERSIZE_BYTES). */
  bytes?: number;
  /** Number of calls affected; unlimited when absent. */
  count?: number;
}

/** What a call must suffer, as taken from the table. */
export interface ActiveFault {
  mode: Exclude<FaultMode, "ok">;
  status: number;
  delayMs: number;
  bytes: number;
}

interface StoredFault extends ActiveFault {
  remaining: number | undefined;
}

/** Thrown for a fault spec the sandbox cannot apply. */
export class FaultSpecError extends Error {}

export class FaultTable {
  private readonly faults = new Map<string, StoredFault>();

  constructor(private readonly providers: ReadonlySet<string>) {}

  /** Sets (or with mode `ok` clears) the fault of one provider. */
  set(spec: FaultSpec): void {
    if (!this.providers.has(spec.provider))
      throw new FaultSpecError(`unknown provider "${spec.provider}"; known: ${[...this.providers].join(", ")}`);
    if (!(FAULT_MODES as readonly string[]).includes(spec.mode)) throw new FaultSpecError(`mode must be one of ${FAULT_MODES.join(", ")}`);
    if (spec.count !== undefined && (!Number.isInteger(spec.count) || spec.count < 1))
      throw new FaultSpecError("count must be a positive integer");
    if (spec.delayMs !== undefined && (!Number.isInteger(spec.delayMs) || spec.delayMs < 0))
      throw new FaultSpecError("delayMs must be a non-negative integer");
    if (spec.bytes !== undefined && (!Number.isInteger(spec.bytes) || spec.bytes < 1 || spec.bytes > 64 * 1024 * 1024))
      throw new FaultSpecError("bytes must be an integer from 1 to 64 MiB");
    if (spec.mode === "ok") {
      this.faults.delete(spec.provider);
      return;
    }
    const status = spec.status ?? (spec.mode === "5xx" ? 503 : 400);
    if (spec.mode === "fail" && (status < 400 || status > 499)) throw new FaultSpecError("status of a fail fault must be 4xx");
    if (spec.mode === "5xx" && (status < 500 || status > 599)) throw new FaultSpecError("status of a 5xx fault must be 5xx");
    this.faults.set(spec.provider, {
      mode: spec.mode,
      status,
      delayMs: spec.delayMs ?? 2000,
      bytes: spec.bytes ?? DEFAULT_OVERSIZE_BYTES,
      remaining: spec.count,
    });
  }

  /** Clears one provider's fault, or all of them. */
  clear(provider?: string): void {
    if (provider === undefined) this.faults.clear();
    else this.faults.delete(provider);
  }

  /** The fault the next call of `provider` must suffer, counting it down. */
  take(provider: string): ActiveFault | undefined {
    const fault = this.faults.get(provider);
    if (!fault) return undefined;
    if (fault.remaining !== undefined) {
      fault.remaining -= 1;
      if (fault.remaining <= 0) this.faults.delete(provider);
    }
    return { mode: fault.mode, status: fault.status, delayMs: fault.delayMs, bytes: fault.bytes };
  }

  /** Current faults, for the control API. */
  list(): Array<ActiveFault & { provider: string; remaining?: number }> {
    return [...this.faults].map(([provider, f]) => ({
      provider,
      mode: f.mode,
      status: f.status,
      delayMs: f.delayMs,
      bytes: f.bytes,
      ...(f.remaining === undefined ? {} : { remaining: f.remaining }),
    }));
  }
}
