import { ExecutionSettled, SettlementKind, type DeepPartial } from "@agentic/proto/events/v1";
import { decodeSettlement } from "./settlement-message";

const encode = (e: DeepPartial<ExecutionSettled>) => ExecutionSettled.encode(ExecutionSettled.fromPartial(e)).finish();
const received = new Date("2030-01-01T00:00:00Z");

describe("decodeSettlement", () => {
  it("decodes a capture with its usage; credits and timestamps survive encoding", () => {
    const createdAt = new Date("2029-12-31T23:59:59.123Z");
    const decoded = decodeSettlement(
      encode({
        holdId: "att_1",
        userId: "u1",
        kind: SettlementKind.SETTLEMENT_KIND_CAPTURE,
        capturedCredits: 2 ** 40 + 1, // int64 beyond 32 bits
        usage: {
          usageId: "use_1",
          createdAt,
          capabilityKey: "email.send",
          status: "succeeded",
          durationMs: 5,
          agentName: "scout",
          inputTokens: 1200,
          outputTokens: 80,
        },
      }),
      received,
    );
    expect(decoded).toEqual({
      ok: true,
      settlement: {
        holdId: "att_1",
        userId: "u1",
        kind: "capture",
        capturedCredits: 2 ** 40 + 1,
        usage: expect.objectContaining({
          usageId: "use_1",
          createdAt,
          capabilityKey: "email.send",
          status: "succeeded",
          durationMs: 5,
          agentName: "scout",
          inputTokens: 1200,
          outputTokens: 80,
        }),
      },
    });
  });

  it("fills a usage item the executor left out, and ignores captured credits of a release", () => {
    const decoded = decodeSettlement(
      encode({ holdId: "att_2", userId: "u1", kind: SettlementKind.SETTLEMENT_KIND_RELEASE, capturedCredits: 9 }),
      received,
    );
    expect(decoded).toMatchObject({
      ok: true,
      settlement: { kind: "release", capturedCredits: 0, usage: { usageId: "use_att_2", createdAt: received, status: "failed" } },
    });
    expect(decoded.ok && decoded.settlement.usage).not.toHaveProperty("inputTokens");
  });

  it("calls out messages that can never be applied", () => {
    expect(decodeSettlement(new Uint8Array([0xff, 0xff]), received)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/undecodable/),
    });
    expect(decodeSettlement(encode({ userId: "u", kind: SettlementKind.SETTLEMENT_KIND_CAPTURE }), received)).toMatchObject({
      ok: false,
      reason: "hold_id is empty",
    });
    expect(decodeSettlement(encode({ holdId: "h", kind: SettlementKind.SETTLEMENT_KIND_CAPTURE }), received)).toMatchObject({
      ok: false,
      reason: "user_id is empty",
    });
    expect(decodeSettlement(encode({ holdId: "h", userId: "u" }), received)).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/neither CAPTURE nor RELEASE/),
    });
    expect(
      decodeSettlement(encode({ holdId: "h", userId: "u", kind: SettlementKind.SETTLEMENT_KIND_CAPTURE, capturedCredits: -1 }), received),
    ).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/not a non-negative integer/),
    });
  });

  const payment = {
    rail: "x402",
    network: "eip155:84532",
    asset: "0x036CbD53842c5426634e7929541eC2318f3dCF7e",
    amountAtomic: "20000",
    amountMicroUsd: 20_000,
    payTo: "0x2222222222222222222222222222222222222222",
    payer: "0x1111111111111111111111111111111111111111",
    reference: "0xfeed",
    settlement: "settled",
  };

  it("carries the resources and payments of an attempt, as given", () => {
    const decoded = decodeSettlement(
      encode({
        holdId: "att_3",
        userId: "u1",
        kind: SettlementKind.SETTLEMENT_KIND_CAPTURE,
        capturedCredits: 2500,
        resources: [{ kind: "email.inbox", resourceId: "ada@agentmail.to", provider: "agentmail" }],
        payments: [payment, { ...payment, reference: "", settlement: "rejected" }],
      }),
      received,
    );
    expect(decoded).toMatchObject({
      ok: true,
      settlement: {
        resources: [{ kind: "email.inbox", resourceId: "ada@agentmail.to", provider: "agentmail" }],
        payments: [payment, { settlement: "rejected" }],
      },
    });
    if (!decoded.ok) throw new Error("unreachable");
    expect(decoded.settlement.payments?.[1]).not.toHaveProperty("reference");
  });

  it("carries a release's uncharged vendor work, and drops one without a readable reason", () => {
    const release = (unchargedWork: DeepPartial<ExecutionSettled>["unchargedWork"]) =>
      decodeSettlement(encode({ holdId: "h", userId: "u", kind: SettlementKind.SETTLEMENT_KIND_RELEASE, unchargedWork }), received);
    expect(release({ reason: "PROVIDER_TIMEOUT", estimatedCostMicroUsd: 10_000 })).toMatchObject({
      ok: true,
      settlement: { unchargedWork: { reason: "PROVIDER_TIMEOUT", estimatedCostMicroUsd: 10_000 } },
    });
    const unreadable = release({ reason: "", estimatedCostMicroUsd: 10_000 });
    expect(unreadable).toMatchObject({ ok: true });
    if (!unreadable.ok) throw new Error("unreachable");
    expect(unreadable.settlement).not.toHaveProperty("unchargedWork");
  });

  it("refuses a payment or resource it could not book faithfully", () => {
    const with_ = (extra: DeepPartial<ExecutionSettled>) =>
      decodeSettlement(encode({ holdId: "h", userId: "u", kind: SettlementKind.SETTLEMENT_KIND_RELEASE, ...extra }), received);
    expect(with_({ payments: [{ ...payment, rail: "card" }] })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^payments\[0\]: rail/),
    });
    expect(with_({ payments: [{ ...payment, amountAtomic: "1.5" }] })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/amount_atomic/),
    });
    expect(with_({ payments: [{ ...payment, amountMicroUsd: -1 }] })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/amount_micro_usd/),
    });
    expect(with_({ payments: [{ ...payment, settlement: "maybe" }] })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/settlement "maybe"/),
    });
    expect(with_({ payments: [{ ...payment, payTo: "0x2 2" }] })).toMatchObject({ ok: false, reason: expect.stringMatching(/payTo/) });
    // A detail the rail lacked is booked empty rather than refusing the settlement.
    expect(with_({ payments: [{ ...payment, payer: "" }] })).toMatchObject({ ok: true });
    expect(with_({ resources: [{ kind: "email.inbox", resourceId: "a b", provider: "agentmail" }] })).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/^resources\[0\]: resource_id/),
    });
  });
});
