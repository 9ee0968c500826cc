import { waitFor } from "./wait-for";
import { startTestSystem } from "./test-stack";

describe("waitFor", () => {
  it("resolves once the check holds", async () => {
    let n = 0;
    await waitFor(() => ++n >= 3, { intervalMs: 1 });
    expect(n).toBe(3);
  });

  it("rejects after the timeout, naming what it waited for", async () => {
    await expect(waitFor(() => false, { timeoutMs: 30, what: "the moon" })).rejects.toThrow("timed out after 30 ms waiting for the moon");
  });
});

describe("startTestSystem", () => {
  const part = (name: string, log: string[]) => Promise.resolve({ name, stop: async () => void log.push(name) });

  it("stops the parts in reverse order", async () => {
    const log: string[] = [];
    const sys = await startTestSystem(async (stack) => ({ a: await stack.start(part("a", log)), b: await stack.start(part("b", log)) }));
    expect(sys.b.name).toBe("b");
    await sys.stop();
    await sys.stop();
    expect(log).toEqual(["b", "a"]);
  });

  it("stops what started when a later part fails, and rethrows", async () => {
    const log: string[] = [];
    await expect(
      startTestSystem(async (stack) => {
        await stack.start(part("a", log));
        await stack.start(Promise.reject(new Error("b failed")));
        return {};
      }),
    ).rejects.toThrow("b failed");
    expect(log).toEqual(["a"]);
  });
});
