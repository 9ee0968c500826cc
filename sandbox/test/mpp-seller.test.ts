// The MPP seller (method evm, intent charge, EIP-3009 authorization) in front of the Exa stand-in:
// challenge format, paid request with receipt, and every rejection the spec lists.
import { MPP_RECIPIENT, SANDBOX_CHAIN_ID, SANDBOX_USDC } from "../src/payments/assets";
import { decodeB64Url, mppCredential, newWallet, parsePaymentChallenges } from "./helpers/payer";
import { postJson, useSandbox } from "./helpers/sandbox";

const sandbox = useSandbox();
const answer = () => `${sandbox().url}/mpp/exa/answer`;
const query = { query: "what is x402" };

async function challenge() {
  const res = await postJson(answer(), query);
  expect(res.status).toBe(402);
  const [ch] = parsePaymentChallenges(res.headers.get("www-authenticate"));
  if (!ch) throw new Error("no Payment challenge");
  return ch;
}

describe("MPP seller", () => {
  it("issues an evm/charge challenge with a JCS request, an expiry and a problem body", async () => {
    const res = await postJson(answer(), query);
    expect(res.status).toBe(402);
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toContain("application/problem+json");
    expect(res.body).toMatchObject({ type: "https://paymentauth.org/problems/payment-required", status: 402 });
    const [ch] = parsePaymentChallenges(res.headers.get("www-authenticate"));
    expect(ch).toMatchObject({ method: "evm", intent: "charge", realm: new URL(sandbox().url).host });
    expect(Date.parse(ch?.expires as string)).toBeGreaterThan(Date.now());
    expect(ch?.request).not.toMatch(/=/); // base64url without padding
    expect(decodeB64Url(ch?.request as string)).toEqual({
      amount: "5000",
      currency: SANDBOX_USDC.address,
      recipient: MPP_RECIPIENT,
      description: "Exa answer",
      methodDetails: {
        chainId: SANDBOX_CHAIN_ID,
        credentialTypes: ["authorization"],
        decimals: 6,
        permit2Address: "0x000000000022D473030F116dDEE9F6B43aC78BA3",
      },
    });
  });

  it("serves a paid request with a Payment-Receipt, moves the funds once, and refuses the replay", async () => {
    const payer = newWallet();
    const credential = await mppCredential(payer, await challenge());
    const before = sandbox().control.balanceOf(payer.address);
    const res = await postJson(answer(), query, { Authorization: credential });
    expect(res.status).toBe(200);
    expect(res.body.answer).toContain("what is x402");
    const receipt = decodeB64Url(res.headers.get("payment-receipt") as string);
    expect(receipt).toMatchObject({ method: "evm", status: "success" });
    expect(receipt.reference).toMatch(/^0x[0-9a-f]{64}$/);
    expect(sandbox().control.balanceOf(payer.address)).toBe(before - 5000n);

    const replay = await postJson(answer(), query, { Authorization: credential });
    expect(replay.status).toBe(402);
    expect(replay.body.type).toBe("https://paymentauth.org/problems/invalid-challenge");
    expect(parsePaymentChallenges(replay.headers.get("www-authenticate"))).toHaveLength(1);
    expect(sandbox().control.balanceOf(payer.address)).toBe(before - 5000n);
  });

  it("accepts the credential in Payment-Authorization too", async () => {
    const res = await postJson(answer(), query, { "Payment-Authorization": await mppCredential(newWallet(), await challenge()) });
    expect(res.status).toBe(200);
  });

  it.each([
    [
      "a tampered request (HMAC mismatch)",
      async (ch: Record<string, string>) => ({ challenge: { request: ch.request?.slice(0, -2) + "AA" } }),
      "invalid-challenge",
    ],
    ["a value other than the amount", async () => ({ value: "4999" }), "verification-failed"],
    ["another recipient", async () => ({ to: "0x000000000000000000000000000000000000dEaD" }), "verification-failed"],
    ["a nonce not bound to the challenge", async () => ({ nonce: `0x${"11".repeat(32)}` as const }), "verification-failed"],
    ["an expired authorization", async () => ({ validBefore: Math.floor(Date.now() / 1000) - 1 }), "verification-failed"],
    ["a credential type the seller did not offer", async () => ({ type: "permit2" }), "verification-failed"],
  ])("rejects %s", async (_name, tamper, problem) => {
    const ch = await challenge();
    const res = await postJson(answer(), query, { Authorization: await mppCredential(newWallet(), ch, await tamper(ch)) });
    expect(res.status).toBe(402);
    expect(res.body.type).toBe(`https://paymentauth.org/problems/${problem}`);
  });

  it("rejects an expired challenge", async () => {
    sandbox().control.mpp.challengeTtlSeconds = -1;
    const ch = await challenge();
    sandbox().control.mpp.challengeTtlSeconds = 300;
    const res = await postJson(answer(), query, { Authorization: await mppCredential(newWallet(), ch) });
    expect(res.body.type).toBe("https://paymentauth.org/problems/payment-expired");
  });

  it("rejects a malformed credential", async () => {
    const res = await postJson(answer(), query, { Authorization: "Payment not*base64url" });
    expect(res.status).toBe(402);
    expect(res.body.type).toBe("https://paymentauth.org/problems/malformed-credential");
  });

  it("rejects a payer without enough funds", async () => {
    const payer = newWallet();
    sandbox().control.setBalance(payer.address, 10n);
    const res = await postJson(answer(), query, { Authorization: await mppCredential(payer, await challenge()) });
    expect(res.body.type).toBe("https://paymentauth.org/problems/payment-insufficient");
  });

  it("settles nothing when the vendor fails, and the same credential pays once the vendor recovers", async () => {
    const payer = newWallet();
    const credential = await mppCredential(payer, await challenge());
    const before = sandbox().control.balanceOf(payer.address);
    sandbox().control.setFault({ provider: "exa", mode: "fail", status: 400, count: 1 });
    const failed = await postJson(answer(), query, { Authorization: credential });
    expect(failed.status).toBe(400);
    expect(failed.body).toMatchObject({ error: "Injected fault.", tag: "INVALID_REQUEST" });
    expect(failed.headers.get("payment-receipt")).toBeNull();
    expect(sandbox().control.balanceOf(payer.address)).toBe(before);

    const retried = await postJson(answer(), query, { Authorization: credential });
    expect(retried.status).toBe(200);
    expect(sandbox().control.balanceOf(payer.address)).toBe(before - 5000n);
  });

  it("settles an error answer too when told to (settleFailedCalls), with a receipt", async () => {
    const payer = newWallet();
    const credential = await mppCredential(payer, await challenge());
    const before = sandbox().control.balanceOf(payer.address);
    sandbox().control.mpp.settleFailedCalls = true;
    sandbox().control.setFault({ provider: "exa", mode: "5xx", count: 1 });
    const failed = await postJson(answer(), query, { Authorization: credential });
    expect(failed.status).toBe(503);
    expect(failed.headers.get("payment-receipt")).not.toBeNull();
    expect(sandbox().control.balanceOf(payer.address)).toBe(before - 5000n);
  });

  it("can offer an unsupported method first, as a second WWW-Authenticate challenge", async () => {
    sandbox().control.mpp.prependUnsupportedChallenge = true;
    const res = await postJson(answer(), query);
    expect(parsePaymentChallenges(res.headers.get("www-authenticate")).map((c) => c.method)).toEqual(["stripe", "evm"]);
  });
});
