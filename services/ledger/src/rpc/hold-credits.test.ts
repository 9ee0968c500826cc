import { status } from "@grpc/grpc-js";
import { AppError, toServiceError, type CallContext } from "@agentic/platform";
import { HoldCreditsRequest } from "@agentic/proto/ledger/v1";
import { createLedger } from "../domain/ledger";
import { IN_MEMORY, SqliteLedgerStore } from "../store/sqlite/sqlite-store";
import { holdCredits } from "./hold-credits";

const ctx = {} as CallContext;
const T0 = new Date("2030-01-01T00:00:00Z");

async function setup() {
  const ledger = createLedger({ store: await SqliteLedgerStore.open({ path: IN_MEMORY }), holdTtlMs: 120_000, clock: () => T0 });
  await ledger.grantCredits({ grantId: "g", userId: "u1", amountCredits: 10, reason: "" });
  return holdCredits(ledger);
}

describe("HoldCredits handler", () => {
  it("answers the hold, the wallet after it, and whether it was a replay", async () => {
    const handle = await setup();
    const req = HoldCreditsRequest.fromPartial({ holdId: "att_1", userId: "u1", amountCredits: 4, routeKey: "email.send/resend" });
    await expect(handle(req, ctx)).resolves.toEqual({
      hold: {
        holdId: "att_1",
        userId: "u1",
        amountCredits: 4,
        state: "held",
        capturedCredits: 0,
        createdAt: T0,
        expiresAt: new Date(T0.getTime() + 120_000),
        routeKey: "email.send/resend",
        settledAt: undefined,
      },
      wallet: { userId: "u1", balanceCredits: 6, heldCredits: 4 },
      replayed: false,
    });
    await expect(handle(req, ctx)).resolves.toMatchObject({ replayed: true, wallet: { balanceCredits: 6 } });
  });

  it("maps a short balance to FAILED_PRECONDITION CREDITS_REQUIRED with details", async () => {
    const handle = await setup();
    const err = await handle(HoldCreditsRequest.fromPartial({ holdId: "att_2", userId: "u1", amountCredits: 11 }), ctx).catch((e) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(toServiceError(err).code).toBe(status.FAILED_PRECONDITION);
    expect(err).toMatchObject({
      code: "CREDITS_REQUIRED",
      details: { requiredCredits: 11, balanceCredits: 10 },
    });
  });

  it("maps bad input to INVALID_ARGUMENT naming the field", async () => {
    const handle = await setup();
    const err = await handle(HoldCreditsRequest.fromPartial({ holdId: "att_3", userId: "u1", amountCredits: 1.5 }), ctx).catch((e) => e);
    expect(toServiceError(err).code).toBe(status.INVALID_ARGUMENT);
    expect(err).toMatchObject({ code: "INVALID_ARGUMENT", details: { field: "amount_credits" } });
  });
});
