// Idempotency records over gRPC (the executor's Idempotency-Key support): claimed, in_progress,
// completed with the stored result, conflict; lease take-over; forgotten after 24 hours.
import { status } from "@grpc/grpc-js";
import { remoteError, uid, useNatsServer, useTestLedger } from "../support";

const nats = useNatsServer();
let nowMs = Date.parse("2030-01-01T00:00:00Z");
const clock = () => new Date(nowMs);
const ledger = useTestLedger(nats, { clock });

describe("idempotency keys", () => {
  it("claimed → in_progress → (complete) → completed with the stored result; another body conflicts", async () => {
    const { client } = ledger();
    const userId = uid("user");
    const key = uid("idem");
    await expect(client.claimIdempotencyKey({ userId, idempotencyKey: key, requestHash: "h1", leaseMs: 30_000 })).resolves.toEqual({ state: "claimed" });

    const busy = await client.claimIdempotencyKey({ userId, idempotencyKey: key, requestHash: "h1", leaseMs: 30_000 });
    expect(busy).toEqual({ state: "in_progress", leaseExpiresAt: new Date(nowMs + 30_000) });
    await expect(client.claimIdempotencyKey({ userId, idempotencyKey: key, requestHash: "h2", leaseMs: 0 })).resolves.toEqual({ state: "conflict" });

    const body = { success: true, creditsCharged: 3, provider: "resend", data: { id: "msg_1", tags: ["a", "b"], nested: { ok: true, none: null } } };
    await client.completeIdempotencyKey({ userId, idempotencyKey: key, result: { httpStatus: 200, body } });
    await client.completeIdempotencyKey({ userId, idempotencyKey: key, result: { httpStatus: 500, body: { error: "later" } } }); // first wins

    await expect(client.claimIdempotencyKey({ userId, idempotencyKey: key, requestHash: "h1", leaseMs: 0 })).resolves.toEqual({
      state: "completed",
      result: { httpStatus: 200, body },
    });
    await expect(client.claimIdempotencyKey({ userId, idempotencyKey: key, requestHash: "h2", leaseMs: 0 })).resolves.toEqual({ state: "conflict" });
    // Keys belong to a user: the same key of another user is a new claim.
    await expect(client.claimIdempotencyKey({ userId: uid("other"), idempotencyKey: key, requestHash: "h2", leaseMs: 0 })).resolves.toEqual({ state: "claimed" });
  });

  it("one of many concurrent claims wins", async () => {
    const { client } = ledger();
    const userId = uid("user");
    const key = uid("idem");
    const answers = await Promise.all(Array.from({ length: 25 }, () => client.claimIdempotencyKey({ userId, idempotencyKey: key, requestHash: "h", leaseMs: 0 })));
    expect(answers.filter((a) => a.state === "claimed")).toHaveLength(1);
    expect(answers.filter((a) => a.state === "in_progress")).toHaveLength(24);
  });

  it("a claim whose lease ran out may be claimed again; 0 means a 60 s lease", async () => {
    const { client } = ledger();
    const userId = uid("user");
    const key = uid("idem");
    await client.claimIdempotencyKey({ userId, idempotencyKey: key, requestHash: "h", leaseMs: 0 });
    nowMs += 59_999;
    await expect(client.claimIdempotencyKey({ userId, idempotencyKey: key, requestHash: "h", leaseMs: 0 })).resolves.toMatchObject({ state: "in_progress" });
    nowMs += 1;
    await expect(client.claimIdempotencyKey({ userId, idempotencyKey: key, requestHash: "h", leaseMs: 0 })).resolves.toEqual({ state: "claimed" });
  });

  it("forgets a record 24 hours after its first claim", async () => {
    const { client } = ledger();
    const userId = uid("user");
    const key = uid("idem");
    await client.claimIdempotencyKey({ userId, idempotencyKey: key, requestHash: "h", leaseMs: 0 });
    await client.completeIdempotencyKey({ userId, idempotencyKey: key, result: { httpStatus: 201 } });
    nowMs += 24 * 60 * 60 * 1000 - 1;
    await expect(client.claimIdempotencyKey({ userId, idempotencyKey: key, requestHash: "other", leaseMs: 0 })).resolves.toEqual({ state: "conflict" });
    nowMs += 1;
    await expect(client.claimIdempotencyKey({ userId, idempotencyKey: key, requestHash: "other", leaseMs: 0 })).resolves.toEqual({ state: "claimed" });
  });

  it("rejects what it cannot store or complete", async () => {
    const { client } = ledger();
    const userId = uid("user");
    await expect(remoteError(client.completeIdempotencyKey({ userId, idempotencyKey: uid("never"), result: { httpStatus: 200 } }))).resolves.toMatchObject({
      grpcCode: status.NOT_FOUND,
      code: "IDEMPOTENCY_KEY_NOT_FOUND",
    });
    await expect(remoteError(client.claimIdempotencyKey({ userId, idempotencyKey: "k".repeat(256), requestHash: "h", leaseMs: 0 }))).resolves.toMatchObject({
      grpcCode: status.INVALID_ARGUMENT,
      details: { field: "idempotency_key" },
    });
    await expect(remoteError(client.claimIdempotencyKey({ userId, idempotencyKey: "k", requestHash: "", leaseMs: 0 }))).resolves.toMatchObject({
      details: { field: "request_hash" },
    });
    await expect(remoteError(client.claimIdempotencyKey({ userId, idempotencyKey: "k", requestHash: "h", leaseMs: 10 }))).resolves.toMatchObject({
      details: { field: "lease_ms" },
    });
    const key = uid("idem");
    await client.claimIdempotencyKey({ userId, idempotencyKey: key, requestHash: "h", leaseMs: 0 });
    await expect(remoteError(client.completeIdempotencyKey({ userId, idempotencyKey: key }))).resolves.toMatchObject({ details: { field: "result" } });
    await expect(remoteError(client.completeIdempotencyKey({ userId, idempotencyKey: key, result: { httpStatus: 42 } }))).resolves.toMatchObject({
      details: { field: "result.http_status" },
    });
  });
});
