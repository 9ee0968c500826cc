// POST /wallet/top-up over real HTTP: the real gateway and ledger, the sandbox's x402 facilitator with
// real EIP-712 signature checks, and the official x402 client paying as a funded test wallet. A wallet
// is credited once per payment, only for what reached the platform's address; a refused payment is a
// 402 with its reason and no credit; a settlement whose answer is lost stays pending until there is
// evidence of the transfer (an operator resolves it), and is credited once.
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { x402Client } from "@x402/fetch";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { SANDBOX_NETWORK, SANDBOX_USDC } from "@agentic/sandbox";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { newUser, type TestUser } from "./execute-helpers";
import { PLATFORM_PAY_TO, decodeHeader, encodeHeader, fundedPayer, payingFetch, tokenBalance } from "./x402-payments";
import { validateResponse } from "./validate-response";

// Short, so a settlement that answers late turns pending at once (the ledger's facilitator timeout).
const FACILITATOR_TIMEOUT_MS = 400;

let sys: BackedSystem;
beforeAll(async () => {
  sys = await startBackedSystem({ topUp: { payTo: PLATFORM_PAY_TO, facilitatorTimeoutMs: FACILITATOR_TIMEOUT_MS } });
}, 60_000);
afterAll(() => sys?.stop());
afterEach(async () => {
  await fetch(`${sys.sandbox.url}/_control/reset`, { method: "POST" });
});

const TOP_UP = "/wallet/top-up";

async function topUp(user: TestUser, body: unknown, headers: Record<string, string> = {}) {
  const res = await sys.authed(TOP_UP, {
    key: user.key,
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });
  const json = (await res.json()) as any;
  const problems = validateResponse("post", TOP_UP, res.status, json);
  if (problems.length > 0)
    throw new Error(`top-up answered ${res.status} outside the OpenAPI document: ${problems.join("; ")}\n${JSON.stringify(json)}`);
  return { status: res.status, body: json, headers: res.headers };
}

async function walletOf(user: TestUser): Promise<number> {
  return (await sys.ledger.client.getWallet({ userId: user.userId })).wallet?.balanceCredits ?? 0;
}

/** A signed payment for `requirements` by `payer`, as the official client makes it (base64 PAYMENT-SIGNATURE). */
async function signedPayment(
  payer: ReturnType<typeof privateKeyToAccount>,
  requirements: Record<string, unknown>,
  resource: unknown,
): Promise<Record<string, any>> {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: payer });
  return (await client.createPaymentPayload({ x402Version: 2, resource, accepts: [requirements] } as never)) as unknown as Record<
    string,
    any
  >;
}

describe("POST /wallet/top-up", () => {
  it("answers 402 with an x402 v2 challenge for exactly the credits asked, and credits nothing", async () => {
    const user = await newUser(sys, 0);
    const res = await topUp(user, { amountUsd: 0.25 });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({ success: false, code: "PAYMENT_REQUIRED" });
    const challenge = decodeHeader(res.headers.get("payment-required"));
    expect(challenge).toMatchObject({ x402Version: 2, resource: { url: expect.stringMatching(/\/wallet\/top-up$/) } });
    expect(challenge.accepts).toEqual([
      {
        scheme: "exact",
        network: SANDBOX_NETWORK,
        amount: "250000",
        asset: SANDBOX_USDC.address,
        payTo: PLATFORM_PAY_TO,
        maxTimeoutSeconds: 300,
        extra: { name: "USDC", version: "2" },
      },
    ]);
    expect(await walletOf(user)).toBe(0);
  });

  it.each([
    [{ amountCredits: 99 }, "amountCredits"],
    [{ amountCredits: 1_000_001 }, "amountCredits"],
    [{ amountCredits: 150.5 }, "amountCredits"],
    [{ amountUsd: 0.0005 }, "amountUsd"],
    [{ amountUsd: 1.2345 }, "amountUsd"],
    [{ amountCredits: 500, amountUsd: 0.5 }, "body"],
    [{}, "body"],
  ])("refuses %j with a 400 naming %s", async (body, field) => {
    const user = await newUser(sys, 0);
    const res = await topUp(user, body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "INVALID_INPUT", error: expect.stringContaining(field) });
  });

  it("is paid by the official x402 client: the wallet gets the credits, the platform the USDC, once; the same payment again credits nothing", async () => {
    const user = await newUser(sys, 40);
    const payer = await fundedPayer(sys, 10_000_000n);
    const platformBefore = await tokenBalance(sys, PLATFORM_PAY_TO);
    const paying = payingFetch(sys, user.key, payer);

    const res = await paying.fetch(sys.gw.baseUrl + TOP_UP, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ amountCredits: 2500 }),
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(validateResponse("post", TOP_UP, 200, body)).toEqual([]);
    expect(body).toMatchObject({
      success: true,
      userId: user.userId,
      amountCredits: 2500,
      creditedCredits: 2500,
      replayed: false,
      balanceCredits: 2540,
      topUpId: expect.stringMatching(/^tu_/),
    });
    expect(decodeHeader(res.headers.get("payment-response"))).toMatchObject({
      success: true,
      network: SANDBOX_NETWORK,
      payer: payer.address,
      transaction: expect.stringMatching(/^0x/),
    });
    expect(await tokenBalance(sys, payer.address)).toBe(10_000_000n - 2_500_000n);
    expect(await tokenBalance(sys, PLATFORM_PAY_TO)).toBe(platformBefore + 2_500_000n);

    // The very same signed payment, sent again by hand.
    expect(paying.signatures).toHaveLength(1);
    const replay = await topUp(user, { amountCredits: 2500 }, { "payment-signature": paying.signatures[0]! });
    expect(replay.status).toBe(200);
    expect(replay.body).toMatchObject({
      topUpId: body.topUpId,
      amountCredits: 2500,
      creditedCredits: 0,
      replayed: true,
      balanceCredits: 2540,
    });
    expect(decodeHeader(replay.headers.get("payment-response"))).toMatchObject({ success: true, payer: payer.address });
    expect(await walletOf(user)).toBe(2540);
    expect(await tokenBalance(sys, PLATFORM_PAY_TO)).toBe(platformBefore + 2_500_000n);

    // Another account presenting it gets nothing either.
    const other = await newUser(sys, 0);
    const stolen = await topUp(other, { amountCredits: 2500 }, { "payment-signature": paying.signatures[0]! });
    expect(stolen.status).toBe(409);
    expect(stolen.body).toMatchObject({ code: "PAYMENT_ALREADY_USED" });
    expect(await walletOf(other)).toBe(0);
    await sys.ledger.assertConsistent([user.userId, other.userId]);
  });

  it("refuses an underpaying payment with a 402 and its reason, and moves nothing", async () => {
    const user = await newUser(sys, 0);
    const payer = await fundedPayer(sys, 10_000_000n);
    const challenge = decodeHeader((await topUp(user, { amountCredits: 1000 })).headers.get("payment-required"));
    const asked = challenge.accepts[0];

    // Signed for less, echoing the cheaper terms: the ledger sees it does not answer the top-up.
    const cheaper = await signedPayment(payer, { ...asked, amount: "100000" }, challenge.resource);
    const echoed = await topUp(user, { amountCredits: 1000 }, { "payment-signature": encodeHeader(cheaper) });
    expect(echoed.status).toBe(402);
    expect(echoed.body).toMatchObject({
      code: "PAYMENT_INVALID",
      error: expect.stringContaining("the payment is for 100000 atomic units, the top-up asks 1000000"),
    });
    expect(decodeHeader(echoed.headers.get("payment-required")).accepts).toEqual([asked]);

    // Signed for less while claiming the asked terms: the facilitator finds the authorized value short.
    const disguised = { ...cheaper, accepted: asked };
    const refused = await topUp(user, { amountCredits: 1000 }, { "payment-signature": encodeHeader(disguised) });
    expect(refused.status).toBe(402);
    expect(refused.body).toMatchObject({
      code: "PAYMENT_INVALID",
      error: expect.stringContaining("invalid_exact_evm_payload_authorization_value_mismatch"),
    });
    expect(decodeHeader(refused.headers.get("payment-required")).error).toBe("invalid_exact_evm_payload_authorization_value_mismatch");

    expect(await walletOf(user)).toBe(0);
    expect(await tokenBalance(sys, payer.address)).toBe(10_000_000n);
  });

  it("refuses an expired payment with a 402 and its reason, and moves nothing", async () => {
    const user = await newUser(sys, 0);
    const payer = await fundedPayer(sys, 10_000_000n);
    const challenge = decodeHeader((await topUp(user, { amountCredits: 1000 })).headers.get("payment-required"));
    const asked = challenge.accepts[0];
    // A real EIP-3009 authorization whose validBefore has passed, signed as the client would.
    const nowS = Math.floor(Date.now() / 1000);
    const authorization = {
      from: payer.address,
      to: asked.payTo,
      value: asked.amount,
      validAfter: String(nowS - 600),
      validBefore: String(nowS - 60),
      nonce: generatePrivateKey(),
    };
    const signature = await payer.signTypedData({
      domain: { name: "USDC", version: "2", chainId: 84532, verifyingContract: asked.asset },
      types: {
        TransferWithAuthorization: [
          { name: "from", type: "address" },
          { name: "to", type: "address" },
          { name: "value", type: "uint256" },
          { name: "validAfter", type: "uint256" },
          { name: "validBefore", type: "uint256" },
          { name: "nonce", type: "bytes32" },
        ],
      },
      primaryType: "TransferWithAuthorization",
      message: {
        ...authorization,
        value: BigInt(authorization.value),
        validAfter: BigInt(authorization.validAfter),
        validBefore: BigInt(authorization.validBefore),
      },
    });
    const payment = { x402Version: 2, resource: challenge.resource, accepted: asked, payload: { authorization, signature } };
    const res = await topUp(user, { amountCredits: 1000 }, { "payment-signature": encodeHeader(payment) });
    expect(res.status).toBe(402);
    expect(res.body).toMatchObject({
      code: "PAYMENT_INVALID",
      error: expect.stringContaining("invalid_exact_evm_payload_authorization_valid_before"),
    });
    expect(await walletOf(user)).toBe(0);
    expect(await tokenBalance(sys, payer.address)).toBe(10_000_000n);
  });

  it("credits nothing when the facilitator refuses to settle, and answers the same refusal to a replay", async () => {
    const user = await newUser(sys, 0);
    const payer = await fundedPayer(sys, 10_000_000n);
    const challenge = decodeHeader((await topUp(user, { amountCredits: 500 })).headers.get("payment-required"));
    const header = encodeHeader(await signedPayment(payer, challenge.accepts[0], challenge.resource));
    await fetch(`${sys.sandbox.url}/_control/x402`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ failNextSettles: 1 }),
    });

    const failed = await topUp(user, { amountCredits: 500 }, { "payment-signature": header });
    expect(failed.status).toBe(402);
    expect(failed.body).toMatchObject({ code: "PAYMENT_FAILED", error: expect.stringContaining("unexpected_settle_error") });
    expect(decodeHeader(failed.headers.get("payment-response"))).toMatchObject({ success: false, errorReason: "unexpected_settle_error" });
    const again = await topUp(user, { amountCredits: 500 }, { "payment-signature": header });
    expect(again.status).toBe(402);
    expect(again.body).toMatchObject({ code: "PAYMENT_FAILED" });
    expect(await walletOf(user)).toBe(0);
    expect(await tokenBalance(sys, payer.address)).toBe(10_000_000n);
  });

  it("leaves a settlement whose answer is lost pending, keeps it pending on a retry without evidence, and credits it once when an operator resolves it", async () => {
    const user = await newUser(sys, 0);
    const payer = await fundedPayer(sys, 10_000_000n);
    const challenge = decodeHeader((await topUp(user, { amountCredits: 700 })).headers.get("payment-required"));
    const header = encodeHeader(await signedPayment(payer, challenge.accepts[0], challenge.resource));
    // The facilitator moves the funds, then answers after the ledger has stopped waiting.
    await fetch(`${sys.sandbox.url}/_control/x402`, {
      method: "PATCH",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ delayNextSettleResponses: 1, settleResponseDelayMs: FACILITATOR_TIMEOUT_MS * 5 }),
    });

    const lost = await topUp(user, { amountCredits: 700 }, { "payment-signature": header });
    expect(lost.status).toBe(409);
    expect(lost.body).toMatchObject({ code: "PAYMENT_PENDING" });
    expect(Number(lost.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(await walletOf(user)).toBe(0);
    expect(await tokenBalance(sys, payer.address)).toBe(10_000_000n - 700_000n);

    // By now the attempt is older than the facilitator's timeout: presenting the payment again asks again, and the
    // facilitator answers "nonce already used" with no transaction: no evidence the transfer reached us (the payer
    // could have burnt the nonce), so nothing is credited and the top-up stays pending for an operator.
    const retried = await topUp(user, { amountCredits: 700 }, { "payment-signature": header });
    expect([retried.status, retried.body.code]).toEqual([409, "PAYMENT_PENDING"]);
    expect(await walletOf(user)).toBe(0);
    const { topUps } = await sys.ledger.client.listPendingTopUps({ limit: 0 });
    const pending = topUps.find((t) => t.userId === user.userId);
    expect(pending).toMatchObject({ amountCredits: 700, payer: payer.address.toLowerCase(), attempts: 2 });

    // The operator finds the transfer on chain and credits it, once.
    const resolved = await sys.ledger.client.resolveTopUp({
      topUpId: pending!.topUpId,
      outcome: "credit",
      reason: "transfer to our address found on chain",
      transaction: "0xfeed",
      operatorName: "ada",
    });
    expect(resolved).toMatchObject({ state: "credited", creditedCredits: 700, wallet: { balanceCredits: 700 } });
    const replay = await topUp(user, { amountCredits: 700 }, { "payment-signature": header });
    expect(replay.body).toMatchObject({ creditedCredits: 0, replayed: true, balanceCredits: 700 });
    expect(await tokenBalance(sys, payer.address)).toBe(10_000_000n - 700_000n);
    await sys.ledger.assertConsistent([user.userId]);
  });
});
