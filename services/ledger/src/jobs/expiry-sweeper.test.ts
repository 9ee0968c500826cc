import { createLogger } from "@agentic/platform";
import { waitFor } from "@agentic/testing";
import type { Ledger } from "../domain/ledger";
import type { Hold } from "../domain/types";
import { createLedgerMetrics } from "../metrics";
import { startExpirySweeper, type ExpirySweeper } from "./expiry-sweeper";

/** What every sweeper here logs and counts with. */
const telemetry = { logger: createLogger("ledger", "silent"), metrics: createLedgerMetrics() };
const hold = (holdId: string): Hold => ({
  holdId,
  userId: "u",
  amountCredits: 1,
  state: "expired",
  capturedCredits: 0,
  createdAt: new Date(0),
  expiresAt: new Date(0),
  routeKey: "",
});

/** A ledger whose due holds are `due` (listed in batches, removed once expired); counts the expire calls. */
function fakeLedger(due: Hold[]) {
  const calls: number[] = [];
  const ledger = {
    async listDueHolds(limit: number) {
      return due.slice(0, limit);
    },
    async expireHolds(holds: Hold[]) {
      calls.push(holds.length);
      const expired = holds.filter((h) => due.includes(h));
      for (const h of expired) due.splice(due.indexOf(h), 1);
      return expired;
    },
  } as unknown as Ledger;
  return { ledger, calls };
}

describe("expiry sweeper", () => {
  let sweeper: ExpirySweeper | undefined;
  afterEach(async () => {
    await sweeper?.stop();
  });

  it("releases due holds every interval and drains a full batch at once", async () => {
    const { ledger } = fakeLedger(["a", "b", "c", "d", "e"].map(hold));
    const seen: string[] = [];
    await new Promise<void>((resolve) => {
      sweeper = startExpirySweeper({
        ledger,
        ...telemetry,
        intervalMs: 10,
        batchSize: 2,
        onExpired: (h) => {
          seen.push(h.holdId);
          if (seen.length === 5) resolve();
        },
      });
    });
    expect(seen).toEqual(["a", "b", "c", "d", "e"]);
  });

  it("waits while settlements are queued, but never longer than maxDeferMs", async () => {
    const { ledger, calls } = fakeLedger([hold("a")]);
    let backlogChecks = 0;
    const started = Date.now();
    const expiredAt = await new Promise<number>((resolve) => {
      sweeper = startExpirySweeper({
        ledger,
        ...telemetry,
        intervalMs: 10,
        maxDeferMs: 150,
        hasBacklog: async () => {
          backlogChecks++;
          return true; // a backlog that never clears
        },
        onExpired: () => resolve(Date.now()),
      });
    });
    expect(backlogChecks).toBeGreaterThan(3);
    expect(expiredAt - started).toBeGreaterThanOrEqual(150);
    expect(calls.length).toBeGreaterThanOrEqual(1);
  });

  it("asks about the backlog only when some hold is due", async () => {
    const due: Hold[] = [];
    const { ledger } = fakeLedger(due);
    let backlogChecks = 0;
    let lists = 0;
    const listDueHolds = ledger.listDueHolds;
    ledger.listDueHolds = async (limit) => {
      lists++;
      return listDueHolds(limit);
    };
    const expired = new Promise<Hold>((resolve) => {
      sweeper = startExpirySweeper({
        ledger,
        ...telemetry,
        intervalMs: 5,
        hasBacklog: async () => {
          backlogChecks++;
          return false;
        },
        onExpired: resolve,
      });
    });
    await waitFor(() => lists >= 5, { timeoutMs: 2_000, what: "five sweeps with nothing due" });
    expect(backlogChecks).toBe(0);
    due.push(hold("a"));
    await expect(expired).resolves.toMatchObject({ holdId: "a" });
    expect(backlogChecks).toBe(1);
  });

  it("sweeps when the backlog check fails (expiry is the safety net)", async () => {
    const { ledger } = fakeLedger([hold("a")]);
    await new Promise<void>((resolve) => {
      sweeper = startExpirySweeper({
        ledger,
        ...telemetry,
        intervalMs: 10,
        hasBacklog: async () => {
          throw new Error("nats down");
        },
        onExpired: () => resolve(),
      });
    });
  });

  it("keeps running after a failed pass, and stop() ends it", async () => {
    let calls = 0;
    const ledger = {
      async listDueHolds() {
        calls++;
        if (calls === 1) throw new Error("store down");
        return [];
      },
    } as unknown as Ledger;
    sweeper = startExpirySweeper({ ledger, ...telemetry, intervalMs: 5 });
    await new Promise<void>((resolve) => {
      const check = setInterval(() => {
        if (calls >= 3) {
          clearInterval(check);
          resolve();
        }
      }, 5);
    });
    await sweeper.stop();
    const after = calls;
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(calls).toBe(after);
  });
});
