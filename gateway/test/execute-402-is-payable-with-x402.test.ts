// Part of money in: the execute's own 402 (CREDITS_REQUIRED) is payable. Over real HTTP with the real
// gateway, ledger, executor and the sandbox's x402 facilitator, the official x402 client pays the
// challenge of a refused call (its full price), the wallet is topped up by that payment through the
// ledger, and the call then runs and is charged as any other.
import { SANDBOX_NETWORK } from "@agentic/sandbox";
import { startBackedSystem, type BackedSystem } from "./backed-system";
import { execute, executeOnceWarm, expectBalanceEqualsJournal, newUser } from "./execute-helpers";
import { PLATFORM_PAY_TO, decodeHeader, fundedPayer, payingFetch, tokenBalance } from "./x402-payments";

let sys: BackedSystem;
beforeAll(async () => {
  sys = await startBackedSystem({ topUp: { payTo: PLATFORM_PAY_TO } });
}, 60_000);
afterAll(() => sys?.stop());

const INPUT = { timezone: "Asia/Kolkata" };

it("answers CREDITS_REQUIRED as today, plus an x402 challenge for the call's price", async () => {
  const user = await newUser(sys, 0);
  // The suite's first execute: a backend still warming up is asked again, as a client would.
  const refused = await executeOnceWarm(sys, user, "geo", "time-current", INPUT);
  expect(refused).toMatchObject({ status: 402, body: { success: false, code: "CREDITS_REQUIRED" } });
  const challenge = decodeHeader(refused.headers.get("payment-required"));
  expect(challenge).toMatchObject({
    x402Version: 2,
    error: "insufficient credits",
    resource: { url: expect.stringMatching(/\/geo\/capabilities\/time-current\/execute$/) },
  });
  expect(challenge.accepts).toEqual([
    expect.objectContaining({
      scheme: "exact",
      network: SANDBOX_NETWORK,
      payTo: PLATFORM_PAY_TO,
      amount: expect.stringMatching(/^[1-9]\d*000$/),
    }),
  ]);
});

it("is paid by the official x402 client: the payment tops the wallet up, then the call runs and is charged from it", async () => {
  const user = await newUser(sys, 0);
  const price =
    Number(decodeHeader((await execute(sys, user, "geo", "time-current", INPUT)).headers.get("payment-required")).accepts[0].amount) / 1000;
  const payer = await fundedPayer(sys, 1_000_000n);
  const paying = payingFetch(sys, user.key, payer);

  const res = await paying.fetch(`${sys.gw.baseUrl}/domains/geo/capabilities/time-current/execute`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(INPUT),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as any;
  expect(body).toMatchObject({ success: true, status: "succeeded", creditsCharged: expect.any(Number) });
  expect(decodeHeader(res.headers.get("payment-response"))).toMatchObject({ success: true, payer: payer.address });
  expect(await tokenBalance(sys, payer.address)).toBe(1_000_000n - BigInt(price * 1000));
  await expectBalanceEqualsJournal(sys, user);
  const { wallet } = await sys.ledger.client.getWallet({ userId: user.userId });
  expect(wallet?.balanceCredits).toBe(price - body.creditsCharged);

  // The same payment sent again credits nothing: the call is charged from what is left, or refused.
  const again = await execute(sys, user, "geo", "time-current", INPUT, { "payment-signature": paying.signatures[0]! });
  if (price - body.creditsCharged >= price) expect(again.status).toBe(200);
  else expect(again.body).toMatchObject({ code: "CREDITS_REQUIRED" });
  await expectBalanceEqualsJournal(sys, user);
});
