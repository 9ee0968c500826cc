// The drain counts calls and the work they leave, refuses calls once it began, and resolves only
// when everything admitted has settled.
import { AppError, type CallContext } from "@agentic/platform";
import { createDrain } from "./drain";

const ctx: CallContext = { metadata: undefined as never, remainingMs: () => Infinity };

/** A call whose end the test decides. */
function gate<T>() {
  let open!: (value: T) => void;
  let fail!: (err: unknown) => void;
  const promise = new Promise<T>((resolve, reject) => {
    open = resolve;
    fail = reject;
  });
  return { promise, open, fail };
}

describe("createDrain", () => {
  it("waits for every call in flight, refuses new ones with EXECUTOR_DRAINING, and resolves once they ended", async () => {
    const drain = createDrain();
    const first = gate<string>();
    const second = gate<string>();
    const handler = drain.admit(async (req: { which: "first" | "second" }) => (req.which === "first" ? first.promise : second.promise));
    const answers = [handler({ which: "first" }, ctx), handler({ which: "second" }, ctx).catch((err: unknown) => err)];
    expect(drain.inFlight).toBe(2);

    let drained = false;
    const stopped = drain.drain().then(() => (drained = true));
    const refused = await handler({ which: "first" }, ctx).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ kind: "unavailable", code: "EXECUTOR_DRAINING", details: { retryAfterSeconds: 1 } });

    first.open("served");
    await expect(answers[0]).resolves.toBe("served");
    expect(drained).toBe(false);
    second.fail(new Error("failed calls end too"));
    await stopped;
    expect(drained).toBe(true);
    expect(drain.inFlight).toBe(0);
  });

  it("waits for followed work such as a result stored after the answer", async () => {
    const drain = createDrain();
    const storing = gate<void>();
    const followed = drain.follow(storing.promise);
    let drained = false;
    const stopped = drain.drain().then(() => (drained = true));
    await Promise.resolve();
    expect(drained).toBe(false);
    storing.open();
    await followed;
    await stopped;
    expect(drained).toBe(true);
  });

  it("resolves at once when nothing is in flight", async () => {
    const drain = createDrain();
    await drain.drain();
    expect(drain.draining).toBe(true);
  });
});
