import { Lifecycle } from "./lifecycle";

describe("Lifecycle", () => {
  it("runs stop hooks in reverse order of registration, once", async () => {
    const order: string[] = [];
    const life = new Lifecycle({ deadlineMs: 1_000 });
    life.onStop("telemetry", () => order.push("telemetry"));
    life.onStop("nats", async () => order.push("nats"));
    life.onStop("health", () => order.push("health"));
    await Promise.all([life.stop(), life.stop()]);
    expect(order).toEqual(["health", "nats", "telemetry"]);
  });

  it("keeps going when a hook throws", async () => {
    const order: string[] = [];
    const life = new Lifecycle({ deadlineMs: 1_000 });
    life.onStop("a", () => order.push("a"));
    life.onStop("b", () => {
      throw new Error("boom");
    });
    await life.stop();
    expect(order).toEqual(["a"]);
  });

  it("fails when the hooks overrun the deadline", async () => {
    const life = new Lifecycle({ deadlineMs: 20 });
    let release!: () => void;
    life.onStop("stuck", () => new Promise<void>((resolve) => (release = resolve)));
    await expect(life.stop()).rejects.toThrow(/deadline/);
    release();
  });
});
