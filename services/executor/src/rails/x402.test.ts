import { SANDBOX_API_KEYS, SANDBOX_NETWORK, SANDBOX_USDC, X402_PAY_TO, startSandbox, type RunningSandbox } from "@agentic/sandbox";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { RailError } from "../domain/rail-port";
import { usdcOn } from "./stablecoins";
import { X402Rail } from "./x402";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.stop());
beforeEach(() => sandbox.control.reset());

const account = privateKeyToAccount(generatePrivateKey());
const rail = new X402Rail({ account, assets: usdcOn([SANDBOX_NETWORK]), maxPriceMicroUsd: 100_000 });
const search = () => ({
  method: "POST" as const,
  url: `${sandbox.baseUrls.apollo.agentcash}/api/v1/mixed_people/api_search`,
  headers: {},
  body: { person_titles: ["engineer"] },
});
const opts = (maxPriceMicroUsd?: number) => ({
  signal: AbortSignal.timeout(5000),
  ...(maxPriceMicroUsd !== undefined ? { maxPriceMicroUsd } : {}),
});
const rejection = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as RailError,
  );

describe("X402Rail", () => {
  it("pays a v2 challenge with a real EIP-3009 signature and reports the settlement", async () => {
    const before = sandbox.control.balanceOf(account.address);
    const res = await rail.send(search(), opts(20_000));
    expect(res.status).toBe(200);
    expect((res.body as { people: unknown[] }).people.length).toBeGreaterThan(0);
    expect(res.payment).toMatchObject({
      rail: "x402",
      amountAtomic: "20000",
      asset: SANDBOX_USDC.address,
      network: SANDBOX_NETWORK,
      payTo: X402_PAY_TO,
      payer: account.address,
      settlement: "settled",
    });
    expect(res.payment?.reference).toMatch(/^0x[0-9a-f]{64}$/);
    expect(sandbox.control.balanceOf(account.address)).toBe(before - 20_000n);
    expect(sandbox.control.calls("apollo").map((c) => [c.status, c.paymentPresented, c.settled])).toEqual([
      [402, false, false],
      [200, true, true],
    ]);
  });

  it("pays a v1 challenge (JSON body, X-PAYMENT, X-PAYMENT-RESPONSE)", async () => {
    sandbox.control.x402.version = 1;
    const res = await rail.send(search(), opts());
    expect(res.status).toBe(200);
    expect(res.payment).toMatchObject({ rail: "x402", settlement: "settled", amountAtomic: "20000" });
    expect(sandbox.control.calls("apollo")[1]?.headers["x-payment"]).toBeDefined();
  });

  it("skips an offer it cannot pay (Solana) for the EVM one behind it", async () => {
    sandbox.control.x402.prependUnsupportedOffer = true;
    const res = await rail.send(search(), opts());
    expect(res.payment?.settlement).toBe("settled");
  });

  it("refuses a price above the call's ceiling without sending any payment", async () => {
    const err = await rejection(rail.send(search(), opts(19_999)));
    expect(err).toMatchObject({
      kind: "payment_rejected",
      reason: "price_above_ceiling",
      details: { amountAtomic: "20000", ceilingAtomic: "19999" },
    });
    expect(sandbox.control.calls("apollo").map((c) => c.paymentPresented)).toEqual([false]);
  });

  it("refuses a price above its configured ceiling even when the caller allows more", async () => {
    const stingy = new X402Rail({ account, assets: usdcOn([SANDBOX_NETWORK]), maxPriceMicroUsd: 1_000 });
    expect(await rejection(stingy.send(search(), opts(1_000_000)))).toMatchObject({ reason: "price_above_ceiling" });
  });

  it("refuses an over-priced offer advertised by the seller", async () => {
    sandbox.control.x402.offerOverrides.amount = "5000000";
    expect(await rejection(rail.send(search(), opts()))).toMatchObject({ kind: "payment_rejected", reason: "price_above_ceiling" });
  });

  it("refuses a token it is not allowed to pay with", async () => {
    sandbox.control.x402.offerOverrides.asset = "0x1111111111111111111111111111111111111111";
    expect(await rejection(rail.send(search(), opts()))).toMatchObject({ kind: "payment_rejected", reason: "asset_not_allowed" });
  });

  it("refuses to sign under a token name that is not the token's own", async () => {
    sandbox.control.x402.offerOverrides.extraName = "USD Coin";
    expect(await rejection(rail.send(search(), opts()))).toMatchObject({ kind: "payment_rejected", reason: "token_domain_mismatch" });
    expect(sandbox.control.calls("apollo")).toHaveLength(1);
  });

  it("surfaces the seller's refusal of a signed payment (insufficient funds) as seller_rejected_payment", async () => {
    sandbox.control.setBalance(account.address, 10n);
    const err = await rejection(rail.send(search(), opts()));
    expect(err).toMatchObject({
      kind: "payment_rejected",
      reason: "seller_rejected_payment",
      details: { sellerError: "insufficient_funds" },
    });
    expect(err?.paymentSent).toBe(true);
    // Signed and sent, refused: not collected, but on the books as rejected (valid until it expires).
    expect(err?.payment).toMatchObject({
      rail: "x402",
      amountAtomic: "20000",
      amountMicroUsd: 20_000,
      payTo: X402_PAY_TO,
      settlement: "rejected",
    });
    sandbox.control.setBalance(account.address, 100_000_000n);
  });

  it("reports a payment the seller settled with an error answer, so it is booked", async () => {
    sandbox.control.x402.settleFailedCalls = true;
    sandbox.control.setFault({ provider: "apollo", mode: "5xx", count: 1 });
    const before = sandbox.control.balanceOf(account.address);
    const res = await rail.send(search(), opts());
    expect(res.status).toBe(503);
    expect(res.payment).toMatchObject({
      rail: "x402",
      settlement: "settled",
      amountAtomic: "20000",
      reference: expect.stringMatching(/^0x[0-9a-f]{64}$/),
    });
    expect(sandbox.control.balanceOf(account.address)).toBe(before - 20_000n);
  });

  it("fails a paid answer larger than the limit before reading it, with the settled payment", async () => {
    sandbox.control.setFault({ provider: "apollo", mode: "oversize", bytes: 300_000, count: 1 });
    const err = await rejection(rail.send(search(), { ...opts(), maxResponseBytes: 100_000 }));
    expect(err).toMatchObject({ kind: "invalid_response", reason: "response_too_large", details: { limitBytes: 100_000 } });
    expect(err?.payment).toMatchObject({ settlement: "settled", amountAtomic: "20000", reference: expect.stringMatching(/^0x/) });
  });

  it("books a payment whose paid request got no answer as unknown", async () => {
    sandbox.control.setFault({ provider: "apollo", mode: "timeout", count: 1 });
    const err = await rejection(rail.send(search(), { signal: AbortSignal.timeout(1_000) }));
    expect(err).toMatchObject({ kind: "timeout", paymentSent: true, payment: { settlement: "unknown", amountAtomic: "20000" } });
  });

  it("surfaces a settlement failure after verification with the seller's reason", async () => {
    sandbox.control.facilitator.failNextSettles = 1;
    expect(await rejection(rail.send(search(), opts()))).toMatchObject({
      reason: "seller_rejected_payment",
      details: { settlementError: "unexpected_settle_error" },
    });
  });

  it("returns a vendor failure after payment as an unpaid response", async () => {
    sandbox.control.setFault({ provider: "apollo", mode: "5xx", count: 1 });
    const before = sandbox.control.balanceOf(account.address);
    const res = await rail.send(search(), opts());
    expect(res.status).toBe(503);
    expect(res.payment).toBeUndefined();
    expect(sandbox.control.balanceOf(account.address)).toBe(before);
  });

  it("passes through answers that ask for no payment", async () => {
    const res = await rail.send(
      {
        method: "POST",
        url: `${sandbox.baseUrls.resend.direct}/emails`,
        headers: { Authorization: `Bearer ${SANDBOX_API_KEYS.resend}` },
        body: { from: "a@acme.dev", to: "b@example.com", subject: "s", text: "t" },
      },
      opts(),
    );
    expect(res.status).toBe(200);
    expect(res.payment).toBeUndefined();
  });

  it("reports a 402 in another protocol (MPP) as unsupported", async () => {
    const err = await rejection(
      rail.send({ method: "POST", url: `${sandbox.baseUrls.exa.mpp}/answer`, headers: {}, body: { query: "q" } }, opts()),
    );
    expect(err).toMatchObject({ kind: "payment_required_unsupported", reason: "not_x402" });
  });
});
