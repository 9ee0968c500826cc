// Starts the whole system as real processes, exactly as `npm start` does (scripts/start.mjs: nats-server,
// catalog, ledger, router, provider sandbox, executor, gateway), on free ports, and stops it. Ready when
// start.mjs prints its banner (after it wrote the ready file); stopped with SIGTERM. The workspaces must be
// built (npm test builds them first).
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
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
 * Starts the system with `env` on top of this process's (e.g. AGENTIC_API_KEYS). A start that lost one
 * of its free ports to another test between picking and binding it (EADDRINUSE; test files run two at a
 * time) is started again, on new ports, up to three times.
 */
export async function startSystem(env: Record<string, string> = {}, timeoutMs = 60_000): Promise<RunningSystem> {
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
  const child = spawn(process.execPath, [join(REPO_ROOT, "scripts/start.mjs")], {
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
  let output = "";
  const exited = new Promise<void>((r) => child.once("exit", () => r()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await new Promise<void>((ready, fail) => {
      const timer = setTimeout(() => fail(new Error(`the system did not start within ${timeoutMs} ms:\n${output}`)), timeoutMs);
      const onData = (chunk: Buffer) => {
        output += chunk.toString();
        if (output.includes("Agentic API is running")) {
          clearTimeout(timer);
          ready();
        }
      };
      child.stdout!.on("data", onData);
      child.stderr!.on("data", (chunk: Buffer) => (output += chunk.toString()));
      child.once("exit", (code) => {
        clearTimeout(timer);
        fail(new Error(`the system exited (code ${code}) during start-up:\n${output}`));
      });
    });
  } catch (err) {
    await stop();
    throw err;
  }
  const ready = JSON.parse(readFileSync(readyFile, "utf8")) as Omit<RunningSystem, "stop">;
  return { ...ready, stop };
}
