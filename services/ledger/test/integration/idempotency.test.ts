// Executions and their Idempotency-Keys over gRPC: claimed, in_progress, completed with the stored
// result, conflict; a lease take-over only while nothing was held; an execution that placed a hold
// never runs again; its outcome recorded by the settlement that charges it; GetExecution per user.
import { status } from "@grpc/grpc-js";
import { SettlementKind } from "@agentic/proto/events/v1";
import { publishSettlement } from "../harness";
import { remoteError, uid, useNatsServer, useTestLedger } from "../support";

const nats = useNatsServer();
let nowMs = Date.parse("2030-01-01T00:00:00Z");
const clock = () => new Date(nowMs);
const ledger = useTestLedger(nats, { clock });

const claimOf = (userId: string, key: string, requestHash: string, executionId = uid("exe"), leaseMs = 0) => ({
  userId,
  idempotencyKey: key,
  requestHash,
  leaseMs,
  executionId,
  capabilityKey: "email.send",
});

describe("executions under Idempotency-Keys", () => {
  it("claimed → in_progress → (complete) → completed with the stored result; another body conflicts", async () => {
    const { client } = ledger();
    const userId = uid("user");
    const key = uid("idem");
    const first = uid("exe");
    await expect(client.claimIdempotencyKey(claimOf(userId, key, "h1", first, 30_000))).resolves.toEqual({
      state: "claimed",
      executionId: first,
      started: false,
    });

    const busy = await client.claimIdempotencyKey(claimOf(userId, key, "h1"));
    expect(busy).toEqual({ state: "in_progress", executionId: first, leaseExpiresAt: new Date(nowMs + 30_000), started: false });
    await expect(client.claimIdempotencyKey(claimOf(userId, key, "h2"))).resolves.toEqual({
      state: "conflict",
      executionId: "",
      started: false,
    });

    const body = {
      success: true,
      creditsCharged: 3,
      provider: "resend",
      data: { id: "msg_1", tags: ["a", "b"], nested: { ok: true, none: null } },
    };
    await client.completeExecution({ userId, executionId: first, result: { httpStatus: 200, body } });
    await client.completeIdempotencyKey({ userId, idempotencyKey: key, result: { httpStatus: 500, body: { error: "later" } } }); // first wins

    await expect(client.claimIdempotencyKey(claimOf(userId, key, "h1"))).resolves.toEqual({
      state: "completed",
      executionId: first,
      result: { httpStatus: 200, body },
      started: true,
    });
    await expect(client.claimIdempotencyKey(claimOf(userId, key, "h2"))).resolves.toMatchObject({ state: "conflict" });
    // Keys belong to a user: the same key of another user is a new claim.
    await expect(client.claimIdempotencyKey(claimOf(uid("other"), key, "h2"))).resolves.toMatchObject({ state: "claimed" });
    await expect(client.getExecution({ userId, executionId: first })).resolves.toMatchObject({
      execution: { state: "succeeded", idempotencyKey: key, result: { httpStatus: 200, body } },
    });
  });

  it("one of many concurrent claims wins", async () => {
    const { client } = ledger();
    const userId = uid("user");
    const key = uid("idem");
    const answers = await Promise.all(Array.from({ length: 25 }, () => client.claimIdempotencyKey(claimOf(userId, key, "h"))));
    expect(answers.filter((a) => a.state === "claimed")).toHaveLength(1);
    expect(answers.filter((a) => a.state === "in_progress")).toHaveLength(24);
  });

  it("a claim that held nothing may be taken over once its lease ran out (0 means 60 s); its late owner is fenced", async () => {
    const { client } = ledger();
    const userId = uid("user");
    const key = uid("idem");
    await client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 50, reason: "test" });
    const old = uid("exe");
    await client.claimIdempotencyKey(claimOf(userId, key, "h", old));
    nowMs += 59_999;
    await expect(client.claimIdempotencyKey(claimOf(userId, key, "h"))).resolves.toMatchObject({ state: "in_progress", executionId: old });
    nowMs += 1;
    const next = uid("exe");
    await expect(client.claimIdempotencyKey(claimOf(userId, key, "h", next))).resolves.toEqual({
      state: "claimed",
      executionId: next,
      started: false,
    });
    await expect(
      remoteError(
        client.holdCredits({
          holdId: uid("att"),
          userId,
          amountCredits: 5,
          ttlMs: 0,
          routeKey: "r",
          execution: { executionId: old, capabilityKey: "email.send", idempotencyKey: key },
        }),
      ),
    ).resolves.toMatchObject({ grpcCode: status.FAILED_PRECONDITION, code: "EXECUTION_FENCED" });
    await expect(client.getWallet({ userId })).resolves.toMatchObject({ wallet: { balanceCredits: 50, heldCredits: 0 } });
  });

  it("an execution that placed a hold is never run again; the capture that charges it records its answer", async () => {
    const { client, nc } = ledger();
    const userId = uid("user");
    const key = uid("idem");
    await client.grantCredits({ grantId: uid("grant"), userId, amountCredits: 50, reason: "test" });
    const executionId = uid("exe");
    const holdId = uid("att");
    await client.claimIdempotencyKey(claimOf(userId, key, "h", executionId));
    await client.holdCredits({
      holdId,
      userId,
      amountCredits: 10,
      ttlMs: 0,
      routeKey: "email.send.resend",
      execution: { executionId, capabilityKey: "email.send", idempotencyKey: key },
    });
    nowMs += 10 * 60_000; // far past the lease: still never claimed again
    await expect(client.claimIdempotencyKey(claimOf(userId, key, "h"))).resolves.toMatchObject({
      state: "in_progress",
      executionId,
      started: true,
    });
    await expect(client.getExecution({ userId, executionId })).resolves.toMatchObject({
      execution: { state: "running", indeterminate: true, holds: [{ holdId, state: "held" }] },
    });

    const answer = { success: true, creditsCharged: 10, executionId };
    await publishSettlement(nc, {
      holdId,
      userId,
      kind: SettlementKind.SETTLEMENT_KIND_CAPTURE,
      capturedCredits: 10,
      outcome: { httpStatus: 200, bodyJson: JSON.stringify(answer) },
    });
    await ledger().waitForSettlement(holdId);
    await expect(client.claimIdempotencyKey(claimOf(userId, key, "h"))).resolves.toMatchObject({
      state: "completed",
      executionId,
      result: { httpStatus: 200, body: answer },
    });
    await expect(client.getExecution({ userId, executionId })).resolves.toMatchObject({
      execution: { state: "succeeded", indeterminate: false, creditsCharged: 10 },
    });
    await expect(client.getWallet({ userId })).resolves.toMatchObject({ wallet: { balanceCredits: 40, heldCredits: 0 } });
  });

  it("shows an execution to its user only", async () => {
    const { client } = ledger();
    const userId = uid("user");
    const executionId = uid("exe");
    await client.claimIdempotencyKey(claimOf(userId, uid("idem"), "h", executionId));
    await expect(remoteError(client.getExecution({ userId: uid("other"), executionId }))).resolves.toMatchObject({
      grpcCode: status.NOT_FOUND,
      code: "EXECUTION_NOT_FOUND",
    });
    await expect(remoteError(client.getExecution({ userId, executionId: uid("exe") }))).resolves.toMatchObject({
      grpcCode: status.NOT_FOUND,
      code: "EXECUTION_NOT_FOUND",
    });
    await expect(
      remoteError(client.completeExecution({ userId: uid("other"), executionId, result: { httpStatus: 200 } })),
    ).resolves.toMatchObject({ code: "EXECUTION_NOT_FOUND" });
  });

  it("forgets a record 24 hours after its first claim", async () => {
    const { client } = ledger();
    const userId = uid("user");
    const key = uid("idem");
    await client.claimIdempotencyKey(claimOf(userId, key, "h"));
    await client.completeIdempotencyKey({ userId, idempotencyKey: key, result: { httpStatus: 201 } });
    nowMs += 24 * 60 * 60 * 1000 - 1;
    await expect(client.claimIdempotencyKey(claimOf(userId, key, "other"))).resolves.toMatchObject({ state: "conflict" });
    nowMs += 1;
    await expect(client.claimIdempotencyKey(claimOf(userId, key, "other"))).resolves.toMatchObject({ state: "claimed" });
  });

  it("rejects what it cannot store or complete", async () => {
    const { client } = ledger();
    const userId = uid("user");
    await expect(
      remoteError(client.completeIdempotencyKey({ userId, idempotencyKey: uid("never"), result: { httpStatus: 200 } })),
    ).resolves.toMatchObject({
      grpcCode: status.NOT_FOUND,
      code: "IDEMPOTENCY_KEY_NOT_FOUND",
    });
    await expect(
      remoteError(client.claimIdempotencyKey({ ...claimOf(userId, "k", "h"), idempotencyKey: "k".repeat(256) })),
    ).resolves.toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      details: { field: "idempotency_key" },
    });
    await expect(remoteError(client.claimIdempotencyKey(claimOf(userId, "k", "")))).resolves.toMatchObject({
      details: { field: "request_hash" },
    });
    await expect(remoteError(client.claimIdempotencyKey(claimOf(userId, "k", "h", "")))).resolves.toMatchObject({
      details: { field: "execution_id" },
    });
    await expect(remoteError(client.claimIdempotencyKey(claimOf(userId, "k", "h", uid("exe"), 10)))).resolves.toMatchObject({
      details: { field: "lease_ms" },
    });
    const key = uid("idem");
    await client.claimIdempotencyKey(claimOf(userId, key, "h"));
    await expect(remoteError(client.completeIdempotencyKey({ userId, idempotencyKey: key }))).resolves.toMatchObject({
      details: { field: "result" },
    });
    await expect(
      remoteError(client.completeIdempotencyKey({ userId, idempotencyKey: key, result: { httpStatus: 42 } })),
    ).resolves.toMatchObject({
      details: { field: "result.http_status" },
    });
  });
});
