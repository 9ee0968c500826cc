// Calls made across one turn of the event loop start back to back at its end, in one synchronous run
// (so nats.js queues their publishes for one socket write); each caller gets its own call's outcome.
import { sentTogetherPerTurn } from "./sent-together-per-turn";

/** A call that notes which synchronous run it started in: a microtask ends the run it started. */
function noteRuns() {
  let run = 0;
  let counting = false;
  const startedIn: Array<[string, number]> = [];
  const call = async (name: string): Promise<string> => {
    startedIn.push([name, run]);
    if (!counting) {
      counting = true;
      queueMicrotask(() => {
        run += 1;
        counting = false;
      });
    }
    if (name.startsWith("fail")) throw new Error(name);
    return `${name} stored`;
  };
  return { call, startedIn };
}

describe("sentTogetherPerTurn", () => {
  it("starts the calls of one turn together at its end, each answered with its own outcome", async () => {
    const { call, startedIn } = noteRuns();
    const send = sentTogetherPerTurn(call);
    const first = send("a");
    // A call made from a later microtask of the same turn joins the same start.
    const second = Promise.resolve().then(() => send("b"));
    const failed = send("fail-c");
    expect(startedIn).toEqual([]);
    await expect(first).resolves.toBe("a stored");
    await expect(second).resolves.toBe("b stored");
    await expect(failed).rejects.toThrow("fail-c");
    expect(startedIn).toEqual([
      ["a", 0],
      ["fail-c", 0],
      ["b", 0],
    ]);
  });

  it("starts the calls of a later turn in a run of their own", async () => {
    const { call, startedIn } = noteRuns();
    const send = sentTogetherPerTurn(call);
    await send("a");
    await Promise.all([send("b"), send("c")]);
    expect(startedIn).toEqual([
      ["a", 0],
      ["b", 1],
      ["c", 1],
    ]);
  });

  it("answers a call that throws before returning a promise with its error", async () => {
    const send = sentTogetherPerTurn((): Promise<never> => {
      throw new Error("refused at once");
    });
    await expect(send()).rejects.toThrow("refused at once");
  });
});
