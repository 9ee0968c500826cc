// Starts e2e/test/support/fault-controller.mjs: the whole system as real processes that a test can
// kill (SIGKILL by default) and restart one by one, e.g. to crash the ledger mid-execution.
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { REPO_ROOT } from "./system";

/** How a service process ended: its exit code, or the signal that ended it. */
export interface ProcessExit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ControlledSystem {
  baseUrl: string;
  apiKey: string;
  /** Private key of this system's admin identity (what `npm run keys` signs with). */
  adminIdentityKey: string;
  natsUrl: string;
  ports: Record<string, { port: number; metricsPort?: number }>;
  /** Where each service's log is (one file per service, appended across restarts). */
  logDir: string;
  /** Sends `signal` (SIGKILL by default) and resolves how the process exited (undefined when it was not running). */
  kill(name: string, signal?: NodeJS.Signals): Promise<ProcessExit | undefined>;
  restart(name: string): Promise<void>;
  stop(): Promise<void>;
}

/**
 * `env` reaches every service (each reads what its config names); the ledger keeps its SQLite file in a
 * temp dir. A start that lost one of its free ports to another test between picking and binding it
 * (EADDRINUSE in a service's log) is started again, on new ports, up to three times.
 */
export async function startControlledSystem(env: Record<string, string> = {}): Promise<ControlledSystem> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startControlledSystemOnce(env);
    } catch (err) {
      if (attempt >= 3 || !(err instanceof PortTakenError)) throw err;
    }
  }
}

/** A start that failed because a service could not bind a port it was given. */
class PortTakenError extends Error {}

function lostAPort(logDir: string): boolean {
  return readdirSync(logDir)
    .filter((f) => f.endsWith(".log"))
    .some((f) => readFileSync(join(logDir, f), "utf8").includes("EADDRINUSE"));
}

async function startControlledSystemOnce(env: Record<string, string>): Promise<ControlledSystem> {
  const dir = mkdtempSync(join(tmpdir(), "agentic-faults-"));
  const child = spawn(process.execPath, [join(REPO_ROOT, "e2e/test/support/fault-controller.mjs")], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: "info", LEDGER_SQLITE_PATH: join(dir, "ledger.sqlite"), AGENTIC_LOG_DIR: dir, ...env },
    stdio: ["pipe", "pipe", "inherit"],
  });
  const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
  const next = async (): Promise<Record<string, unknown>> => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`the controlled system exited; logs in ${dir}`);
    return JSON.parse(value) as Record<string, unknown>;
  };
  // Commands are answered in order; one at a time keeps answers paired with their commands.
  let queue: Promise<unknown> = Promise.resolve();
  const send = (command: Record<string, string>) => {
    const answer = queue.then(async () => {
      child.stdin!.write(`${JSON.stringify(command)}\n`);
      const reply = await next();
      if (reply.error) throw new Error(`${command.cmd} ${command.name ?? ""}: ${String(reply.error)}`);
      return reply;
    });
    queue = answer.catch(() => undefined);
    return answer;
  };

  const ready = await next();
  if (ready.error) {
    if (lostAPort(dir)) {
      await new Promise((r) => (child.exitCode !== null ? r(undefined) : child.once("exit", r)));
      rmSync(dir, { recursive: true, force: true });
      throw new PortTakenError(`a service lost its port: ${String(ready.error)}`);
    }
    throw new Error(`the system did not start: ${String(ready.error)}; logs in ${dir}`);
  }
  let stopped = false;
  return {
    baseUrl: ready.baseUrl as string,
    apiKey: ready.apiKey as string,
    adminIdentityKey: ready.adminIdentityKey as string,
    natsUrl: ready.natsUrl as string,
    ports: ready.ports as ControlledSystem["ports"],
    logDir: dir,
    kill: async (name, signal = "SIGKILL") => (await send({ cmd: "kill", name, signal })).exit as ProcessExit | undefined,
    restart: async (name) => void (await send({ cmd: "restart", name })),
    async stop() {
      if (stopped) return;
      stopped = true;
      const exited = new Promise((r) => child.once("exit", r));
      await send({ cmd: "stop" }).catch(() => child.kill("SIGTERM"));
      await exited;
      if (!process.env.AGENTIC_KEEP_LOGS) rmSync(dir, { recursive: true, force: true });
    },
  };
}
