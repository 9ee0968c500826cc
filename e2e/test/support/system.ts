// Starts the whole system as real processes, exactly as `npm start` does (scripts/start.mjs),
// on free ports, and stops it. The workspaces must be built (npm test builds them first).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";

export const REPO_ROOT = resolve(__dirname, "../../..");

export interface RunningSystem {
  origin: string;
  baseUrl: string;
  apiKey: string;
  /** Private key of this system's admin identity (what `npm run keys` signs with). */
  adminIdentityKey: string;
  natsUrl: string;
  started: string[];
  pids: Record<string, number>;
  ports: Record<string, { port: number; metricsPort?: number }>;
  stop(): Promise<void>;
}

/**
 * Starts the system; a start that lost one of its free ports to another test between picking and
 * binding it (EADDRINUSE) is started again, on new ports, up to three times.
 */
export async function startSystem(env: Record<string, string> = {}, timeoutMs = 45_000): Promise<RunningSystem> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startSystemOnce(env, timeoutMs);
    } catch (err) {
      if (attempt >= 3 || !String((err as Error).message).includes("EADDRINUSE")) throw err;
    }
  }
}

async function startSystemOnce(env: Record<string, string>, timeoutMs: number): Promise<RunningSystem> {
  const dir = mkdtempSync(join(tmpdir(), "agentic-e2e-"));
  const readyFile = join(dir, "ready.json");
  let output = "";
  const child: ChildProcess = spawn(process.execPath, [join(REPO_ROOT, "scripts/start.mjs")], {
    cwd: REPO_ROOT,
    // The ledger's database lives in the test's temp dir: never the developer's .data, never shared between tests.
    env: {
      ...process.env,
      LOG_LEVEL: "warn",
      LEDGER_SQLITE_PATH: join(dir, "ledger.sqlite"),
      // The built console, not Vite's dev server: one process fewer per system (a test of the dev server sets CONSOLE_DEV=1).
      CONSOLE_DEV: "0",
      ...env,
      AGENTIC_FREE_PORTS: "1",
      AGENTIC_READY_FILE: readyFile,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (c: Buffer) => (output += c.toString()));
  child.stderr!.on("data", (c: Buffer) => (output += c.toString()));
  const exited = new Promise<void>((r) => child.once("exit", () => r()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const until = Date.now() + timeoutMs;
  while (!existsSync(readyFile)) {
    if (child.exitCode !== null || Date.now() > until) {
      await stop();
      throw new Error(`the system did not start:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const ready = JSON.parse(readFileSync(readyFile, "utf8"));
  return { ...ready, stop };
}
