// Operators' grants, refunds and adjustments over real gRPC: recorded with the verified caller identity
// and the name given, idempotent on the reference, never below zero, shown as their own kind of usage
// item, and counted per day in the reconciliation.
import { status } from "@grpc/grpc-js";
import { createLedgerClient } from "@agentic/clients";
import { testIdentities } from "@agentic/testing";
import { RecordCreditMovementRequest } from "@agentic/proto/ledger/v1";
import { remoteError, uid, useNatsServer, useTestLedger } from "../support";

const nats = useNatsServer();
const ledger = useTestLedger(nats);

const movement = (fields: Partial<RecordCreditMovementRequest>) =>
  RecordCreditMovementRequest.fromPartial({
    kind: "grant",
    amountCredits: 1_000,
    reason: "welcome credit",
    operatorName: "ada",
    ...fields,
  });

describe("RecordCreditMovement", () => {
  it("records a grant, a refund and an adjustment with who, why and when, in the journal and the user's usage", async () => {
    const t = ledger();
    const userId = uid("user");
    const granted = await t.client.recordCreditMovement(movement({ userId, reference: uid("ref") }));
    expect(granted).toMatchObject({
      replayed: false,
      wallet: { userId, balanceCredits: 1_000, heldCredits: 0 },
      entry: { kind: "grant", amountCredits: 1_000, reason: "welcome credit", operator: "admin", operatorName: "ada" },
    });
    await t.client.recordCreditMovement(
      movement({ userId, reference: uid("ref"), kind: "refund", amountCredits: 25, reason: "timeout on an execution", operatorName: "" }),
    );
    await t.client.recordCreditMovement(
      movement({ userId, reference: "case-42", kind: "adjustment", amountCredits: -5, reason: "  duplicate refund  " }),
    );

    const journal = await t.client.listJournal({ userId });
    expect(journal.journalBalanceCredits).toBe(1_020);
    expect(journal.entries.map((e) => [e.kind, e.amountCredits, e.reason, e.operator, e.operatorName])).toEqual([
      ["grant", 1_000, "welcome credit", "admin", "ada"],
      ["refund", 25, "timeout on an execution", "admin", undefined],
      ["adjustment", -5, "duplicate refund", "admin", "ada"],
    ]);
    const { items, nextCursor } = await t.client.listUsage({ userId, limit: 0 });
    expect(nextCursor).toBeUndefined();
    expect(items.map((u) => [u.kind, u.amountCredits, u.creditsCharged, u.reason])).toEqual([
      ["adjustment", -5, 0, "duplicate refund"],
      ["refund", 25, 0, "timeout on an execution"],
      ["grant", 1_000, 0, "welcome credit"],
    ]);
    expect(items[0]).toMatchObject({
      id: journal.entries[2]!.entryId,
      reference: "case-42",
      operator: "admin",
      createdAt: journal.entries[2]!.createdAt,
    });
    expect(items[0]!.holdId).toBeUndefined();
  });

  it("is one movement per reference: a retry replays it, the same reference for anything else is CREDIT_REFERENCE_CONFLICT", async () => {
    const t = ledger();
    const [userId, reference] = [uid("user"), uid("ref")];
    const first = await t.client.recordCreditMovement(movement({ userId, reference }));
    await expect(t.client.recordCreditMovement(movement({ userId, reference, operatorName: "bob" }))).resolves.toEqual({
      ...first,
      replayed: true,
    });
    for (const other of [{ userId: uid("user") }, { amountCredits: 999 }, { kind: "refund" }]) {
      expect(await remoteError(t.client.recordCreditMovement(movement({ userId, reference, ...other })))).toMatchObject({
        grpcCode: status.ALREADY_EXISTS,
        code: "CREDIT_REFERENCE_CONFLICT",
        details: { reference },
      });
    }
    await expect(t.client.getWallet({ userId })).resolves.toMatchObject({ wallet: { balanceCredits: 1_000 } });
    await expect(t.client.listUsage({ userId, limit: 0 })).resolves.toMatchObject({ items: [{ kind: "grant", reference }] });
  });

  it("takes credits back only down to the available balance: BALANCE_TOO_LOW writes nothing", async () => {
    const t = ledger();
    const userId = uid("user");
    await t.client.recordCreditMovement(movement({ userId, reference: uid("ref"), amountCredits: 100 }));
    await t.client.holdCredits({ holdId: uid("hold"), userId, amountCredits: 60, ttlMs: 0, routeKey: "r" });
    expect(
      await remoteError(t.client.recordCreditMovement(movement({ userId, reference: uid("ref"), kind: "adjustment", amountCredits: -41 }))),
    ).toMatchObject({
      grpcCode: status.FAILED_PRECONDITION,
      code: "BALANCE_TOO_LOW",
      details: { amountCredits: -41, balanceCredits: 40 },
    });
    await expect(
      t.client.recordCreditMovement(movement({ userId, reference: uid("ref"), kind: "refund", amountCredits: -40 })),
    ).resolves.toMatchObject({
      wallet: { balanceCredits: 0, heldCredits: 60 },
    });
    expect((await t.client.listUsage({ userId, limit: 0 })).items.map((u) => u.amountCredits)).toEqual([-40, 100]);
  });

  it.each([
    ["an unknown kind", { kind: "bonus" }, "kind"],
    ["an adjustment of 0", { amountCredits: 0, kind: "adjustment" }, "amount_credits"],
    ["a negative grant", { amountCredits: -1 }, "amount_credits"],
    ["a refund above 10^12", { amountCredits: 1_000_000_000_001, kind: "refund" }, "amount_credits"],
    ["a blank reason", { reason: "   " }, "reason"],
    ["a reason of 501 characters", { reason: "x".repeat(501) }, "reason"],
    ["no reference", { reference: "" }, "reference"],
    ["a reference with a space", { reference: "two words" }, "reference"],
    ["no user", { userId: "" }, "user_id"],
    ["an operator name of 201 characters", { operatorName: "y".repeat(201) }, "operator_name"],
  ] as const)("refuses %s as INVALID_ARGUMENT naming the field, writing nothing", async (_what, fields, field) => {
    const t = ledger();
    const userId = uid("user");
    expect(await remoteError(t.client.recordCreditMovement(movement({ userId, reference: uid("ref"), ...fields })))).toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      details: { field },
    });
    await expect(t.client.listJournal({ userId })).resolves.toMatchObject({ entries: [] });
  });

  it("is refused to every identity but admin", async () => {
    const t = ledger();
    const userId = uid("user");
    for (const name of ["gateway", "router", "executor"] as const) {
      const client = createLedgerClient(t.address, 5_000, testIdentities().identity(name));
      try {
        expect(await remoteError(client.recordCreditMovement(movement({ userId, reference: uid("ref") })))).toMatchObject({
          grpcCode: status.PERMISSION_DENIED,
        });
      } finally {
        client.close();
      }
    }
    await expect(t.client.getWallet({ userId })).resolves.toMatchObject({ wallet: { balanceCredits: 0 } });
  });

  it("shows in the reconciliation: movements per UTC day and kind", async () => {
    const t = ledger();
    const userId = uid("user");
    await t.client.recordCreditMovement(movement({ userId, reference: uid("ref"), amountCredits: 300 }));
    await t.client.recordCreditMovement(movement({ userId, reference: uid("ref"), kind: "adjustment", amountCredits: -20 }));
    await t.client.recordCreditMovement(movement({ userId, reference: uid("ref"), kind: "adjustment", amountCredits: 7 }));
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const report = await t.client.getReconciliation({ fromDate: day(-1), toDate: day(1) });
    // Around midnight the movements may span two days: what each kind adds up to is what counts.
    const total = (kind: string) =>
      report.creditMovements
        .filter((m) => m.kind === kind)
        .reduce(
          (sum, m) => ({
            movements: sum.movements + m.movements,
            added: sum.added + m.addedCredits,
            removed: sum.removed + m.removedCredits,
          }),
          { movements: 0, added: 0, removed: 0 },
        );
    expect(total("grant")).toEqual({ movements: 1, added: 300, removed: 0 });
    expect(total("adjustment")).toEqual({ movements: 2, added: 7, removed: 20 });
    expect(report.creditMovements.every((m) => /^\d{4}-\d{2}-\d{2}$/.test(m.date))).toBe(true);
  });
});
