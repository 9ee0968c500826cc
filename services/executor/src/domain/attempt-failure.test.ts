import { ProviderError } from "./provider-port";
import { RailError } from "./rail-port";
import { classifyFailure, mayFallBack } from "./attempt-failure";

const classify = (err: unknown) => classifyFailure(err, "resend", 1500);

describe("classifyFailure", () => {
  it("falls back after failures where the vendor certainly did not act", () => {
    const http5xx = classify(new ProviderError("http_5xx", "resend", "resend answered 503", { status: 503, blame: "provider" }));
    expect(http5xx).toMatchObject({ errorKind: "http_5xx", usageErrorCode: "PROVIDER_ERROR", summary: "HTTP 503 from resend" });
    expect(mayFallBack(http5xx)).toBe(true);
    const refused = classify(new RailError("network", "connection_failed", "could not reach", { code: "ECONNREFUSED" }));
    expect(refused).toMatchObject({ errorKind: "network", mayHaveActed: false });
    expect(mayFallBack(refused)).toBe(true);
    const payment = classify(new RailError("payment_rejected", "price_above_ceiling", "too expensive"));
    expect(payment).toMatchObject({
      errorKind: "payment",
      usageErrorCode: "PAYMENT_FAILED",
      summary: "payment to resend failed (price_above_ceiling)",
    });
    expect(mayFallBack(payment)).toBe(true);
  });

  it("never falls back when the vendor may have acted, so nothing is done twice", () => {
    const timeout = classify(new RailError("timeout", "deadline_exceeded", "no answer"));
    expect(timeout).toMatchObject({
      errorKind: "timeout",
      usageErrorCode: "PROVIDER_TIMEOUT",
      mayHaveActed: true,
      summary: "no answer from resend within 1500 ms",
    });
    expect(mayFallBack(timeout)).toBe(false);
    expect(mayFallBack(classify(new RailError("network", "connection_failed", "reset", { code: "ECONNRESET" })))).toBe(false);
    expect(mayFallBack(classify(new ProviderError("invalid_response", "resend", "no id", { status: 200 })))).toBe(false);
    expect(classify(new TypeError("adapter bug"))).toMatchObject({ errorKind: "invalid_response", mayHaveActed: true });
    const tooLarge = classify(new RailError("invalid_response", "response_too_large", "too large", { limitBytes: 10 }));
    expect(tooLarge).toMatchObject({
      errorKind: "invalid_response",
      usageErrorCode: "PROVIDER_ERROR",
      mayHaveActed: true,
      paymentSent: false,
    });
    expect(mayFallBack(tooLarge)).toBe(false);
  });

  it("knows when a payment credential was sent: a seller's refusal of it, no answer after it, or a paid answer", () => {
    const payment = { rail: "x402" as const, amountAtomic: "1", settlement: "rejected" as const };
    const refused = classify(new RailError("payment_rejected", "seller_rejected_payment", "refused", {}, { payment }));
    expect(refused).toMatchObject({ errorKind: "payment", mayHaveActed: false, paymentSent: true });
    expect(
      classify(new RailError("timeout", "deadline_exceeded", "no answer", {}, { payment: { ...payment, settlement: "unknown" } })),
    ).toMatchObject({ paymentSent: true });
    expect(
      classifyFailure(new ProviderError("invalid_response", "apollo", "no people", { status: 200 }), "apollo", 1500, true),
    ).toMatchObject({ paymentSent: true });
    expect(classifyFailure(new ProviderError("http_5xx", "apollo", "503", { status: 503 }), "apollo", 1500, true)).toMatchObject({
      paymentSent: true,
    });
    expect(classify(new RailError("payment_rejected", "price_above_ceiling", "too expensive"))).toMatchObject({ paymentSent: false });
  });

  it("blames the input for a vendor's 4xx refusal of the request, and does not fall back", () => {
    const rejected = classify(
      new ProviderError("http_4xx", "resend", "resend answered 422", { status: 422, blame: "input", vendorCode: "validation_error" }),
    );
    expect(rejected).toMatchObject({
      errorKind: "http_4xx",
      blame: "input",
      usageErrorCode: "PROVIDER_REJECTED_INPUT",
      summary: "HTTP 422 from resend, validation_error",
    });
    expect(mayFallBack(rejected)).toBe(false);
    const account = classify(new ProviderError("http_4xx", "resend", "resend answered 403", { status: 403, blame: "provider" }));
    expect(mayFallBack(account)).toBe(true);
  });
});
