// Starts a real nats-server with JetStream on a random loopback port and a temp store, for tests
// and for `npm start` when NATS_URL is not set. Never reuses a server that is already running.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./free-port";

export interface NatsServerHandle {
  url: string;
  port: number;
  storeDir: string;
  process: ChildProcess;
  /** Stops the server and removes its store. */
  stop(): Promise<void>;
}

/** The nats-server binary: NATS_SERVER_BIN, else the one on PATH. */
export function natsServerBin(): string {
  return process.env.NATS_SERVER_BIN ?? "nats-server";
}

export async function startNatsServer(opts: { readyTimeoutMs?: number } = {}): Promise<NatsServerHandle> {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), "agentic-nats-"));
  const child = spawn(natsServerBin(), ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", storeDir], {
    stdio: ["ignore", "ignore", "pipe"],
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      await exited;
    }
    rmSync(storeDir, { recursive: true, force: true });
  };
  await new Promise<void>((resolve, reject) => {
    let log = "";
    const timer = setTimeout(() => fail(new Error(`nats-server not ready after ${opts.readyTimeoutMs ?? 10_000} ms:\n${log}`)), opts.readyTimeoutMs ?? 10_000);
    function fail(err: Error) {
      clearTimeout(timer);
      void stop().finally(() => reject(err));
    }
    child.once("error", (err: NodeJS.ErrnoException) =>
      fail(err.code === "ENOENT" ? new Error("nats-server not found: install it with `apt-get install nats-server` (or set NATS_SERVER_BIN)") : err),
    );
    child.stderr!.on("data", (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes("Server is ready")) {
        clearTimeout(timer);
        child.stderr!.removeAllListeners("data");
        child.stderr!.resume(); // keep draining so the pipe never fills
        resolve();
      }
    });
    child.once("exit", (code) => fail(new Error(`nats-server exited with code ${code}:\n${log}`)));
  });
  child.removeAllListeners("exit");
  return { url: `nats://127.0.0.1:${port}`, port, storeDir, process: child, stop };
}
