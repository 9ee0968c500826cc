// The x402 seller in front of the Apollo stand-in: challenge (v2 header / v1 body), pay, settle only
// when the vendor succeeded, and refuse replays.
import { SANDBOX_NETWORK, SANDBOX_USDC, X402_PAY_TO } from "../src/payments/assets";
import { base64Json, fromBase64Json, newWallet, signAuthorization } from "./helpers/payer";
import { postJson, useSandbox } from "./helpers/sandbox";

const sandbox = useSandbox();
const search = () => `${sandbox().url}/x402/apollo/api/v1/mixed_people/api_search`;
const query = { person_titles: ["engineer"], per_page: 5 };

interface Required {
  x402Version: number;
  error: string;
  resource: { url: string };
  accepts: Array<Record<string, any>>;
}

async function payV2(accepted: Record<string, any>, payer = newWallet()) {
  const { authorization, signature } = await signAuthorization(payer, { to: accepted.payTo, value: accepted.amount });
  return { header: base64Json({ x402Version: 2, accepted, payload: { signature, authorization } }), payer };
}

describe("x402 seller (v2)", () => {
  it("answers 402 with PAYMENT-REQUIRED naming the exact USDC offer", async () => {
    const res = await postJson(search(), query);
    expect(res.status).toBe(402);
    const required = fromBase64Json<Required>(res.headers.get("payment-required"));
    expect(required.x402Version).toBe(2);
    expect(required.resource.url).toBe(search());
    expect(required.accepts).toEqual([
      {
        scheme: "exact",
        network: SANDBOX_NETWORK,
        amount: "20000",
        asset: SANDBOX_USDC.address,
        payTo: X402_PAY_TO,
        maxTimeoutSeconds: 60,
        extra: { name: "USDC", version: "2" },
      },
    ]);
    expect(sandbox().control.calls("apollo")).toHaveLength(1);
  });

  it("serves a paid request, settles it, and returns PAYMENT-RESPONSE", async () => {
    const challenge = fromBase64Json<Required>((await postJson(search(), query)).headers.get("payment-required"));
    const { header, payer } = await payV2(challenge.accepts[0] as Record<string, any>);
    const res = await postJson(search(), query, { "PAYMENT-SIGNATURE": header });
    expect(res.status).toBe(200);
    expect(res.body.people.length).toBeGreaterThan(0);
    const settlement = fromBase64Json(res.headers.get("payment-response"));
    expect(settlement).toMatchObject({ success: true, payer: payer.address, network: SANDBOX_NETWORK });
    const calls = sandbox().control.calls("apollo");
    expect(calls.map((c) => [c.status, c.paymentPresented, c.settled])).toEqual([
      [402, false, false],
      [200, true, true],
    ]);

    const replay = await postJson(search(), query, { "PAYMENT-SIGNATURE": header });
    expect(replay.status).toBe(402);
    expect(fromBase64Json<Required>(replay.headers.get("payment-required")).error).toBe("invalid_exact_evm_nonce_already_used");
  });

  it("rejects a payment for an amount other than the offer", async () => {
    const challenge = fromBase64Json<Required>((await postJson(search(), query)).headers.get("payment-required"));
    const { header } = await payV2({ ...challenge.accepts[0], amount: "1" });
    const res = await postJson(search(), query, { "PAYMENT-SIGNATURE": header });
    expect(res.status).toBe(402);
    expect(fromBase64Json<Required>(res.headers.get("payment-required")).error).toBe("no offered requirement matches the accepted one");
  });

  it("does not settle when the vendor fails, so the payer keeps the money", async () => {
    const challenge = fromBase64Json<Required>((await postJson(search(), query)).headers.get("payment-required"));
    const { header, payer } = await payV2(challenge.accepts[0] as Record<string, any>);
    const before = sandbox().control.balanceOf(payer.address);
    sandbox().control.setFault({ provider: "apollo", mode: "5xx", count: 1 });
    const res = await postJson(search(), query, { "PAYMENT-SIGNATURE": header });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({ error: "Injected fault." });
    expect(res.headers.get("payment-response")).toBeNull();
    expect(sandbox().control.balanceOf(payer.address)).toBe(before);
  });

  it("settles an error answer too when told to (settleFailedCalls: a misbehaving seller)", async () => {
    const challenge = fromBase64Json<Required>((await postJson(search(), query)).headers.get("payment-required"));
    const { header, payer } = await payV2(challenge.accepts[0] as Record<string, any>);
    const before = sandbox().control.balanceOf(payer.address);
    sandbox().control.x402.settleFailedCalls = true;
    sandbox().control.setFault({ provider: "apollo", mode: "5xx", count: 1 });
    const res = await postJson(search(), query, { "PAYMENT-SIGNATURE": header });
    expect(res.status).toBe(503);
    expect(fromBase64Json(res.headers.get("payment-response"))).toMatchObject({ success: true });
    expect(sandbox().control.balanceOf(payer.address)).toBe(before - 20_000n);
    expect(sandbox().control.calls("apollo").at(-1)).toMatchObject({ status: 503, settled: true });
  });

  it("settles a paid 200 whatever its body: a garbage answer and an oversize one cost the price", async () => {
    for (const fault of [{ mode: "garbage" as const }, { mode: "oversize" as const, bytes: 100_000 }]) {
      const challenge = fromBase64Json<Required>((await postJson(search(), query)).headers.get("payment-required"));
      const { header, payer } = await payV2(challenge.accepts[0] as Record<string, any>);
      sandbox().control.setFault({ provider: "apollo", count: 1, ...fault });
      const res = await fetch(search(), {
        method: "POST",
        headers: { "content-type": "application/json", "PAYMENT-SIGNATURE": header },
        body: JSON.stringify(query),
      });
      const text = await res.text();
      expect(res.status).toBe(200);
      expect(res.headers.get("payment-response")).not.toBeNull();
      if (fault.mode === "garbage") expect(JSON.parse(text)).toEqual({ sandbox: "an answer this vendor never sends" });
      else expect(text).toHaveLength(100_000);
      expect(sandbox().control.balanceOf(payer.address)).toBe(100_000_000n - 20_000n);
    }
  });

  it("answers 402 with a failed PAYMENT-RESPONSE when settlement fails after verification", async () => {
    const challenge = fromBase64Json<Required>((await postJson(search(), query)).headers.get("payment-required"));
    const { header } = await payV2(challenge.accepts[0] as Record<string, any>);
    sandbox().control.facilitator.failNextSettles = 1;
    const res = await postJson(search(), query, { "PAYMENT-SIGNATURE": header });
    expect(res.status).toBe(402);
    expect(fromBase64Json(res.headers.get("payment-response"))).toMatchObject({
      success: false,
      errorReason: "unexpected_settle_error",
      transaction: "",
    });
  });
});

describe("x402 seller (v1)", () => {
  it("challenges in the JSON body and settles an X-PAYMENT with X-PAYMENT-RESPONSE", async () => {
    sandbox().control.x402.version = 1;
    const challenge = await postJson(search(), query);
    expect(challenge.status).toBe(402);
    expect(challenge.headers.get("payment-required")).toBeNull();
    const offer = challenge.body.accepts[0];
    expect(offer).toMatchObject({
      scheme: "exact",
      network: "base-sepolia",
      maxAmountRequired: "20000",
      resource: search(),
      payTo: X402_PAY_TO,
    });

    const payer = newWallet();
    const { authorization, signature } = await signAuthorization(payer, { to: offer.payTo, value: offer.maxAmountRequired });
    const header = base64Json({ x402Version: 1, scheme: "exact", network: "base-sepolia", payload: { signature, authorization } });
    const res = await postJson(search(), query, { "X-PAYMENT": header });
    expect(res.status).toBe(200);
    expect(fromBase64Json(res.headers.get("x-payment-response"))).toMatchObject({
      success: true,
      network: "base-sepolia",
      payer: payer.address,
    });
  });
});
