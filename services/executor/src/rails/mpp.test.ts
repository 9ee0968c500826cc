import { MPP_RECIPIENT, SANDBOX_NETWORK, SANDBOX_USDC, startSandbox, type RunningSandbox } from "@agentic/sandbox";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { MppRail } from "./mpp";
import { decodeBase64UrlJson } from "./mpp-wire";
import type { RailError } from "../domain/rail-port";
import { usdcOn } from "./stablecoins";

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(() => sandbox.stop());
beforeEach(() => sandbox.control.reset());

const account = privateKeyToAccount(generatePrivateKey());
const rail = new MppRail({ account, assets: usdcOn([SANDBOX_NETWORK]), maxPriceMicroUsd: 100_000 });
const answer = () => ({ method: "POST" as const, url: `${sandbox.baseUrls.exa.mpp}/answer`, headers: {}, body: { query: "what is MPP" } });
const opts = (maxPriceMicroUsd?: number) => ({
  signal: AbortSignal.timeout(5000),
  ...(maxPriceMicroUsd !== undefined ? { maxPriceMicroUsd } : {}),
});
const rejection = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e as RailError,
  );

describe("MppRail", () => {
  it("pays an evm/charge challenge with a challenge-bound EIP-3009 credential and reads the receipt", async () => {
    const before = sandbox.control.balanceOf(account.address);
    const res = await rail.send(answer(), opts(5_000));
    expect(res.status).toBe(200);
    expect((res.body as { answer: string }).answer).toContain("what is MPP");
    expect(res.payment).toMatchObject({
      rail: "mpp",
      amountAtomic: "5000",
      asset: SANDBOX_USDC.address,
      network: SANDBOX_NETWORK,
      payTo: MPP_RECIPIENT,
      payer: account.address,
      settlement: "settled",
    });
    expect(res.payment?.reference).toMatch(/^0x[0-9a-f]{64}$/);
    expect(sandbox.control.balanceOf(account.address)).toBe(before - 5_000n);
    const calls = sandbox.control.calls("exa");
    expect(calls.map((c) => [c.status, c.paymentPresented, c.settled])).toEqual([
      [402, false, false],
      [200, true, true],
    ]);
    expect(calls[1]?.headers.authorization).toMatch(/^Payment [A-Za-z0-9_-]+$/);
  });

  it("answers a GET with query string the same way (timeapi)", async () => {
    const res = await rail.send(
      { method: "GET", url: `${sandbox.baseUrls.timeapi.mpp}/api/timezone/zone?timeZone=Asia/Kolkata`, headers: {} },
      opts(),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ timeZone: "Asia/Kolkata", currentUtcOffset: { seconds: 19_800 } });
    expect(res.payment?.amountAtomic).toBe("1000");
  });

  it("picks the evm challenge when an unsupported method is offered first", async () => {
    sandbox.control.mpp.prependUnsupportedChallenge = true;
    expect((await rail.send(answer(), opts())).payment?.settlement).toBe("settled");
  });

  it("refuses a price above the ceiling without sending a credential", async () => {
    const err = await rejection(rail.send(answer(), opts(4_999)));
    expect(err).toMatchObject({
      kind: "payment_rejected",
      reason: "price_above_ceiling",
      details: { amountAtomic: "5000", ceilingAtomic: "4999" },
    });
    expect(sandbox.control.calls("exa").map((c) => c.paymentPresented)).toEqual([false]);
  });

  it("refuses a chain whose token it may not use", async () => {
    sandbox.control.mpp.requestOverrides.chainId = 1;
    expect(await rejection(rail.send(answer(), opts()))).toMatchObject({ kind: "payment_rejected", reason: "asset_not_allowed" });
  });

  it("reports a challenge without the authorization credential type as unsupported", async () => {
    sandbox.control.mpp.requestOverrides.credentialTypes = ["permit2", "transaction"];
    expect(await rejection(rail.send(answer(), opts()))).toMatchObject({
      kind: "payment_required_unsupported",
      reason: "credential_type_unsupported",
    });
  });

  it("refuses an already-expired challenge", async () => {
    sandbox.control.mpp.challengeTtlSeconds = -5;
    expect(await rejection(rail.send(answer(), opts()))).toMatchObject({ kind: "payment_rejected", reason: "challenge_expired" });
    expect(sandbox.control.calls("exa")).toHaveLength(1);
  });

  it("surfaces the seller's refusal (insufficient funds) with the problem type, and the refused payment", async () => {
    sandbox.control.setBalance(account.address, 1n);
    const err = await rejection(rail.send(answer(), opts()));
    expect(err).toMatchObject({
      kind: "payment_rejected",
      reason: "seller_rejected_payment",
      details: { problemType: "https://paymentauth.org/problems/payment-insufficient" },
    });
    expect(err?.payment).toMatchObject({ rail: "mpp", amountAtomic: "5000", amountMicroUsd: 5_000, settlement: "rejected" });
    sandbox.control.setBalance(account.address, 100_000_000n);
  });

  it("caps the authorization's life at an hour, as x402's, whatever the challenge's expiry", async () => {
    sandbox.control.mpp.challengeTtlSeconds = 30 * 24 * 3600;
    const res = await rail.send(answer(), opts());
    expect(res.payment?.settlement).toBe("settled");
    const credential = decodeBase64UrlJson(sandbox.control.calls("exa")[1]!.headers.authorization!.replace(/^Payment /, "")) as {
      payload: { validBefore: string };
    };
    const validFor = Number(credential.payload.validBefore) - Math.floor(Date.now() / 1000);
    expect(validFor).toBeGreaterThan(3_500);
    expect(validFor).toBeLessThanOrEqual(3_600);
  });

  it("reports a payment settled with an error answer (a receipt on a 5xx), and one whose answer was too large", async () => {
    sandbox.control.mpp.settleFailedCalls = true;
    sandbox.control.setFault({ provider: "exa", mode: "5xx", count: 1 });
    const failed = await rail.send(answer(), opts());
    expect([failed.status, failed.payment?.settlement, failed.payment?.reference]).toEqual([503, "settled", expect.stringMatching(/^0x/)]);
    sandbox.control.setFault({ provider: "exa", mode: "oversize", bytes: 50_000, count: 1 });
    const err = await rejection(rail.send(answer(), { ...opts(), maxResponseBytes: 10_000 }));
    expect(err).toMatchObject({ kind: "invalid_response", reason: "response_too_large", payment: { settlement: "settled" } });
  });

  it("returns a vendor failure after the credential as an unpaid response", async () => {
    sandbox.control.setFault({ provider: "exa", mode: "5xx", count: 1 });
    const res = await rail.send(answer(), opts());
    expect(res.status).toBe(503);
    expect(res.payment).toBeUndefined();
  });

  it("reports an x402 challenge as unsupported", async () => {
    const err = await rejection(
      rail.send(
        { method: "POST", url: `${sandbox.baseUrls.apollo.agentcash}/api/v1/mixed_people/api_search`, headers: {}, body: {} },
        opts(),
      ),
    );
    expect(err).toMatchObject({ kind: "payment_required_unsupported", reason: "no_payment_challenge" });
  });
});
