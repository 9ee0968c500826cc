import { spawnSync } from "node:child_process";
import { join } from "node:path";
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

describe("runMain", () => {
  const run = (thrown: string) =>
    spawnSync(
      process.execPath,
      [
        "-e",
        `const { runMain, StartupError } = require(${JSON.stringify(join(__dirname, "..", "dist", "index.js"))}); runMain("svc", async () => { throw ${thrown}; });`,
      ],
      { encoding: "utf8" },
    );

  it("prints a StartupError's message alone and exits 1", () => {
    const res = run(`new StartupError("catalog at /x is invalid (1 problem):\\n  - a.yaml: bad")`);
    expect(res.status).toBe(1);
    expect(res.stderr).toBe("svc: catalog at /x is invalid (1 problem):\n  - a.yaml: bad\n");
  });

  it("prints an unexpected failure whole, with its stack, and exits 1", () => {
    const res = run(`new Error("boom")`);
    expect(res.status).toBe(1);
    expect(res.stderr).toContain("svc: failed to start");
    expect(res.stderr).toMatch(/Error: boom\n\s+at /);
  });
});
