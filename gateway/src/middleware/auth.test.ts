// The API-key cache: concurrent requests share one ledger lookup, unknown keys are remembered
// briefly, and a failing ledger is neither cached nor mistaken for a bad key.
import { status as GrpcStatus } from "@grpc/grpc-js";
import type { LedgerClient } from "@agentic/clients";
import type { NextFunction, Request, Response } from "express";
import { requireApiKey } from "./auth";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

// Well-formed keys (aak_ + 32..128 base62): a malformed one never reaches the ledger at all.
const ONE = `aak_${"1".repeat(32)}`;
const NOBODY = `aak_${"0".repeat(32)}`;

/** A ledger whose AuthenticateApiKey knows `known` keys, answers after `delayMs`, and counts calls. */
function fakeLedger(known: Record<string, string>, delayMs = 20) {
  const calls: string[] = [];
  let failWith: Error | undefined;
  const ledger = {
    async authenticateApiKey({ apiKey }: { apiKey: string }) {
      calls.push(apiKey);
      await sleep(delayMs);
      if (failWith) throw failWith;
      const userId = known[apiKey];
      if (!userId) throw Object.assign(new Error("unknown key"), { code: GrpcStatus.UNAUTHENTICATED });
      return { userId, keyId: `key-${userId}` };
    },
  };
  return { ledger: ledger as unknown as LedgerClient, calls, fail: (err: Error | undefined) => (failWith = err) };
}

interface Outcome {
  status?: number;
  body?: { code: string };
  caller?: { userId: string; keyId: string };
  error?: unknown;
}

/** Runs the middleware once for `key` and reports what it did. */
function authenticate(middleware: ReturnType<typeof requireApiKey>, key: string): Promise<Outcome> {
  return new Promise((resolve) => {
    const outcome: Outcome = {};
    const req = { headers: { authorization: `Bearer ${key}` } } as Request;
    const res = {
      locals: {},
      setHeader() {
        return this;
      },
      status(code: number) {
        outcome.status = code;
        return this;
      },
      json(body: { code: string }) {
        outcome.body = body;
        resolve(outcome);
        return this;
      },
    } as unknown as Response;
    const next: NextFunction = (err?: unknown) => {
      if (err) outcome.error = err;
      else outcome.caller = res.locals.caller;
      resolve(outcome);
    };
    void middleware(req, res, next);
  });
}

describe("requireApiKey", () => {
  it("makes one ledger call for concurrent requests with an uncached or expired key", async () => {
    const { ledger, calls } = fakeLedger({ [ONE]: "u1" });
    const auth = requireApiKey(ledger, { ttlMs: 60, negativeTtlMs: 20 });
    const first = await Promise.all(Array.from({ length: 20 }, () => authenticate(auth, ONE)));
    expect(first.every((o) => o.caller?.userId === "u1" && o.caller.keyId === "key-u1")).toBe(true);
    expect(calls).toHaveLength(1);

    await authenticate(auth, ONE);
    expect(calls).toHaveLength(1); // still cached

    await sleep(80); // expired
    const again = await Promise.all(Array.from({ length: 20 }, () => authenticate(auth, ONE)));
    expect(again.every((o) => o.caller?.userId === "u1")).toBe(true);
    expect(calls).toHaveLength(2);
  });

  it("remembers an unknown key for the short negative TTL only", async () => {
    const { ledger, calls } = fakeLedger({});
    const auth = requireApiKey(ledger, { ttlMs: 10_000, negativeTtlMs: 50 });
    const outcomes = await Promise.all(Array.from({ length: 5 }, () => authenticate(auth, NOBODY)));
    expect(outcomes.map((o) => [o.status, o.body?.code])).toEqual(Array.from({ length: 5 }, () => [401, "INVALID_API_KEY"]));
    expect(calls).toHaveLength(1);
    await authenticate(auth, NOBODY);
    expect(calls).toHaveLength(1);
    await sleep(80);
    expect(await authenticate(auth, NOBODY)).toMatchObject({ status: 401 });
    expect(calls).toHaveLength(2);
  });

  it("refuses a bearer not shaped like a key without a ledger call", async () => {
    const { ledger, calls } = fakeLedger({ [ONE]: "u1" });
    const auth = requireApiKey(ledger, { ttlMs: 10_000, negativeTtlMs: 10_000 });
    for (const key of ["aak_one", `${ONE}!`, `sk_${"1".repeat(32)}`]) {
      expect(await authenticate(auth, key)).toMatchObject({ status: 401, body: { code: "INVALID_API_KEY" } });
    }
    expect(calls).toEqual([]);
  });

  it("passes a ledger failure on without caching it", async () => {
    const { ledger, calls, fail } = fakeLedger({ [ONE]: "u1" });
    const auth = requireApiKey(ledger, { ttlMs: 10_000, negativeTtlMs: 10_000 });
    const down = Object.assign(new Error("ledger down"), { code: GrpcStatus.UNAVAILABLE });
    fail(down);
    expect(await authenticate(auth, ONE)).toEqual({ error: down });
    fail(undefined);
    expect((await authenticate(auth, ONE)).caller).toEqual({ userId: "u1", keyId: "key-u1" });
    expect(calls).toHaveLength(2);
  });
});
