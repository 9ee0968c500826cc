// The facilitator's rules over HTTP (/facilitator/verify, /settle, /supported) with real signatures.
import { SANDBOX_NETWORK, SANDBOX_USDC, X402_PAY_TO } from "../src/payments/assets";
import { newWallet, signAuthorization } from "./helpers/payer";
import { postJson, useSandbox } from "./helpers/sandbox";

const sandbox = useSandbox();

const requirements = {
  scheme: "exact",
  network: SANDBOX_NETWORK,
  amount: "20000",
  asset: SANDBOX_USDC.address,
  payTo: X402_PAY_TO,
  maxTimeoutSeconds: 60,
  extra: { name: "USDC", version: "2" },
};

async function body(
  payer = newWallet(),
  auth: Parameters<typeof signAuthorization>[1] = { to: X402_PAY_TO, value: "20000" },
  reqs: Record<string, unknown> = requirements,
) {
  const { authorization, signature } = await signAuthorization(payer, auth);
  return {
    x402Version: 2,
    paymentPayload: { x402Version: 2, accepted: reqs, payload: { signature, authorization } },
    paymentRequirements: reqs,
  };
}

describe("x402 facilitator", () => {
  it("lists the exact scheme on the sandbox network for v1 and v2", async () => {
    const res = await fetch(`${sandbox().url}/facilitator/supported`);
    const supported = (await res.json()) as { kinds: Array<{ x402Version: number; network: string }> };
    expect(supported.kinds).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ x402Version: 2, scheme: "exact", network: SANDBOX_NETWORK }),
        expect.objectContaining({ x402Version: 1, network: "base-sepolia" }),
      ]),
    );
  });

  it("verifies a valid authorization, settles it once, and rejects the reused nonce", async () => {
    const payer = newWallet();
    const b = await body(payer);
    const verified = await postJson(`${sandbox().url}/facilitator/verify`, b);
    expect(verified.body).toEqual({ isValid: true, payer: payer.address });

    const before = sandbox().control.balanceOf(payer.address);
    const settled = await postJson(`${sandbox().url}/facilitator/settle`, b);
    expect(settled.body).toMatchObject({ success: true, network: SANDBOX_NETWORK, payer: payer.address, amount: "20000" });
    expect(settled.body.transaction).toMatch(/^0x[0-9a-f]{64}$/);
    expect(sandbox().control.balanceOf(payer.address)).toBe(before - 20000n);
    expect(sandbox().control.balanceOf(X402_PAY_TO)).toBeGreaterThanOrEqual(20000n);

    const replay = await postJson(`${sandbox().url}/facilitator/settle`, b);
    expect(replay.body).toMatchObject({ success: false, errorReason: "invalid_exact_evm_nonce_already_used", transaction: "" });
  });

  it.each([
    ["a wrong amount", { to: X402_PAY_TO, value: "19999" }, "invalid_exact_evm_payload_authorization_value_mismatch"],
    [
      "a wrong recipient",
      { to: "0x000000000000000000000000000000000000dEaD", value: "20000" },
      "invalid_exact_evm_payload_recipient_mismatch",
    ],
    [
      "an expired authorization",
      { to: X402_PAY_TO, value: "20000", validBefore: Math.floor(Date.now() / 1000) + 2 },
      "invalid_exact_evm_payload_authorization_valid_before",
    ],
    [
      "a not-yet-valid authorization",
      { to: X402_PAY_TO, value: "20000", validAfter: Math.floor(Date.now() / 1000) + 120 },
      "invalid_exact_evm_payload_authorization_valid_after",
    ],
    [
      "a signature under the wrong token name",
      { to: X402_PAY_TO, value: "20000", domainName: "USD Coin" },
      "invalid_exact_evm_payload_signature",
    ],
    [
      "a signature by someone other than `from`",
      { to: X402_PAY_TO, value: "20000", from: newWallet().address },
      "invalid_exact_evm_payload_signature",
    ],
  ])("rejects %s", async (_name, auth, reason) => {
    const res = await postJson(`${sandbox().url}/facilitator/verify`, await body(newWallet(), auth));
    expect(res.body).toMatchObject({ isValid: false, invalidReason: reason });
  });

  it("rejects a payer without enough funds", async () => {
    const payer = newWallet();
    sandbox().control.setBalance(payer.address, 19_999n);
    const res = await postJson(`${sandbox().url}/facilitator/verify`, await body(payer));
    expect(res.body).toMatchObject({ isValid: false, invalidReason: "insufficient_funds" });
  });

  it("rejects schemes and tokens it cannot settle", async () => {
    const upto = await postJson(
      `${sandbox().url}/facilitator/verify`,
      await body(newWallet(), undefined, { ...requirements, scheme: "upto" }),
    );
    expect(upto.body).toMatchObject({ isValid: false, invalidReason: "unsupported_scheme" });
    const otherToken = await postJson(
      `${sandbox().url}/facilitator/verify`,
      await body(newWallet(), undefined, { ...requirements, asset: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913" }),
    );
    expect(otherToken.body).toMatchObject({ isValid: false, invalidReason: "invalid_payment_requirements" });
  });

  it("answers 400 to a body that is not a facilitator request", async () => {
    const res = await postJson(`${sandbox().url}/facilitator/verify`, { hello: "world" });
    expect(res.status).toBe(400);
  });
});
