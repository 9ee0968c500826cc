// One rule for every top-up path: a payment's echoed terms, and relayed ones, are exactly the
// platform's offer for their amount; what is settled is that offer.
import { acceptedTopUp } from "./top-up-acceptance";
import { requirementsFor, topUpTerms } from "./top-up-terms";

const terms = topUpTerms({
  network: "eip155:8453",
  payTo: "0x5af1a0c7e0d1b9e6f2c4d8a3b7e9f1c2d3e4f5a6",
  maxTimeoutSeconds: 60,
  maxCredits: 100_000,
});
const offer = requirementsFor(terms, 250);

describe("acceptedTopUp", () => {
  it("accepts the platform's own offer, echoed as it was made, with or without the relayed requirements", () => {
    expect(acceptedTopUp(terms, structuredClone(offer))).toEqual({ credits: 250, requirements: offer });
    expect(acceptedTopUp(terms, structuredClone(offer), structuredClone(offer))).toEqual({ credits: 250, requirements: offer });
  });

  it("refuses a payer's own extra terms on the path without relayed requirements (a 402 execute), naming the field", () => {
    const withMethod = { ...offer, extra: { ...offer.extra, assetTransferMethod: "permit2" } };
    expect(acceptedTopUp(terms, withMethod)).toEqual({
      reason: "requirements_not_offered",
      problem: "extra.assetTransferMethod is not the platform's offer",
    });
    expect(acceptedTopUp(terms, { ...offer, memo: "x" })).toMatchObject({
      reason: "requirements_not_offered",
      problem: "memo is not the platform's offer",
    });
  });

  it("refuses a payment whose echoed terms differ from the relayed offer (POST /wallet/top-up), naming the amounts", () => {
    expect(acceptedTopUp(terms, requirementsFor(terms, 1), offer)).toEqual({
      reason: "accepted_mismatch",
      problem: `the payment is for 1000 atomic units, the top-up asks ${offer.amount}`,
    });
  });

  it("refuses terms the platform never offers: another address, a fraction of a credit, above the most per payment", () => {
    expect(acceptedTopUp(terms, { ...offer, payTo: "0x0000000000000000000000000000000000000001" })).toMatchObject({
      reason: "requirements_not_offered",
    });
    expect(acceptedTopUp(terms, { ...offer, amount: "1500" })).toMatchObject({ reason: "requirements_not_offered" });
    expect(acceptedTopUp(terms, requirementsFor(terms, 100_001))).toMatchObject({ reason: "requirements_not_offered" });
  });
});
