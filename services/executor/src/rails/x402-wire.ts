// x402 wire format, client side: the 402 "payment required" object (v2 `PAYMENT-REQUIRED` header or
// v1 JSON body), the payment header we send back, and the settlement response header.

/** One payment requirement as offered (v1 and v2 fields; `raw` is echoed verbatim in v2). */
export interface Offer {
  scheme: string;
  network: string;
  /** v2 `amount` or v1 `maxAmountRequired`, atomic units. */
  amount: string;
  asset: string;
  payTo: string;
  maxTimeoutSeconds: number;
  extraName?: string;
  extraVersion?: string;
  raw: Record<string, unknown>;
}

export interface PaymentRequired {
  version: 1 | 2;
  error?: string;
  /** v2 resource object, echoed in the payload. */
  resource?: unknown;
  /** v2 extensions, echoed in the payload. */
  extensions?: unknown;
  offers: Offer[];
}

/** Standard base64 (with padding) of JSON, the x402 header encoding. */
export function encodeHeader(value: unknown): string {
  return Buffer.from(JSON.stringify(value), "utf8").toString("base64");
}

function decodeHeader(value: string | undefined): Record<string, unknown> | undefined {
  if (!value) return undefined;
  try {
    const parsed: unknown = JSON.parse(Buffer.from(value, "base64").toString("utf8"));
    return typeof parsed === "object" && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The x402 challenge of a 402 answer: the `PAYMENT-REQUIRED` header first (v2), else a JSON body with
 * `x402Version: 1`. Undefined when the 402 is not x402 (e.g. an MPP challenge or a vendor's own 402).
 */
export function readPaymentRequired(headers: Record<string, string>, body: unknown): PaymentRequired | undefined {
  const v2 = decodeHeader(headers["payment-required"]);
  const source = v2 ?? (isRecord(body) && body.x402Version === 1 ? body : undefined);
  if (!source || !Array.isArray(source.accepts)) return undefined;
  const version = v2 ? 2 : 1;
  const offers = source.accepts.filter(isRecord).flatMap((raw): Offer[] => {
    const amount = version === 2 ? raw.amount : raw.maxAmountRequired;
    if (
      typeof raw.scheme !== "string" ||
      typeof raw.network !== "string" ||
      typeof amount !== "string" ||
      typeof raw.asset !== "string" ||
      typeof raw.payTo !== "string"
    )
      return [];
    const extra = isRecord(raw.extra) ? raw.extra : {};
    return [
      {
        scheme: raw.scheme,
        network: raw.network,
        amount,
        asset: raw.asset,
        payTo: raw.payTo,
        maxTimeoutSeconds: typeof raw.maxTimeoutSeconds === "number" ? raw.maxTimeoutSeconds : 60,
        ...(typeof extra.name === "string" ? { extraName: extra.name } : {}),
        ...(typeof extra.version === "string" ? { extraVersion: extra.version } : {}),
        raw,
      },
    ];
  });
  return {
    version,
    ...(typeof source.error === "string" ? { error: source.error } : {}),
    ...(source.resource !== undefined ? { resource: source.resource } : {}),
    ...(source.extensions !== undefined ? { extensions: source.extensions } : {}),
    offers,
  };
}

/** The settlement response (`PAYMENT-RESPONSE`, else v1 `X-PAYMENT-RESPONSE`), if any. */
export function readSettlement(
  headers: Record<string, string>,
): { success: boolean; transaction?: string; network?: string; payer?: string; errorReason?: string } | undefined {
  const s = decodeHeader(headers["payment-response"] ?? headers["x-payment-response"]);
  if (!s || typeof s.success !== "boolean") return undefined;
  return {
    success: s.success,
    ...(typeof s.transaction === "string" && s.transaction !== "" ? { transaction: s.transaction } : {}),
    ...(typeof s.network === "string" ? { network: s.network } : {}),
    ...(typeof s.payer === "string" ? { payer: s.payer } : {}),
    ...(typeof s.errorReason === "string" ? { errorReason: s.errorReason } : {}),
  };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
