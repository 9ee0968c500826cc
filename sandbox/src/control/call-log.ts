// Every request a vendor stand-in receives, so tests can assert "exactly N calls" or "no call".

/** One request to a vendor stand-in. */
export interface CallRecord {
  seq: number;
  provider: string;
  /** Which mount was called: direct (API key), agentcash (x402) or mpp. */
  network: "direct" | "agentcash" | "mpp";
  method: string;
  /** Path below the vendor prefix. */
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: unknown;
  at: string;
  /** The request carried an x402 or MPP payment proof. */
  paymentPresented: boolean;
  /** Set when the answer was sent; absent while the call hangs (e.g. a `timeout` fault). */
  status?: number;
  /** A payment was settled for this call. */
  settled: boolean;
}

export class CallLog {
  private readonly records: CallRecord[] = [];
  private seq = 0;

  /** Records a call as it arrives; the caller completes it when the answer goes out. */
  start(entry: Omit<CallRecord, "seq" | "at" | "settled" | "status">): CallRecord {
    const record: CallRecord = { ...entry, seq: ++this.seq, at: new Date().toISOString(), settled: false };
    this.records.push(record);
    return record;
  }

  /** Calls in arrival order, optionally of one provider. */
  list(provider?: string): CallRecord[] {
    return this.records.filter((r) => provider === undefined || r.provider === provider).map((r) => ({ ...r }));
  }

  clear(): void {
    this.records.length = 0;
  }
}
