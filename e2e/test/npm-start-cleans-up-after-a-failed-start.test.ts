// `npm start` whose ledger cannot start (production store without MONGODB_URI) exits non-zero with
// the ledger's reason, and leaves none of the processes it had already started running.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT } from "./support/system";

/** Pids of live processes whose environment carries `marker`. */
function processesWithMarker(marker: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/environ`, "latin1").includes(marker)) pids.push(Number(entry));
    } catch {
      // The process ended while we looked, or is not ours to read.
    }
  }
  return pids;
}

describe("npm start after a service fails to start", () => {
  it("exits non-zero, says which service failed, and stops everything it started", async () => {
    const marker = `AGENTIC_TEST_MARKER=${randomUUID()}`;
    const [key, value] = marker.split("=") as [string, string];
    const child = spawn(process.execPath, [join(REPO_ROOT, "scripts/start.mjs")], {
      cwd: REPO_ROOT,
      env: { ...process.env, [key]: value, AGENTIC_FREE_PORTS: "1", LOG_LEVEL: "warn", LEDGER_STORE: "mongodb", MONGODB_URI: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
    child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));

    expect(code).toBe(1);
    expect(output).toMatch(/npm start: ledger exited during start-up/);
    expect(output).toMatch(/MONGODB_URI/);
    expect(processesWithMarker(value)).toEqual([]);
  }, 60_000);
});
