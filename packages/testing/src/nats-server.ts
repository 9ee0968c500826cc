// Starts a real nats-server with JetStream on a random loopback port and a temp store, for tests
// and for `npm start` when NATS_URL is not set. Never reuses a server that is already running.
// With `authorization`, it runs the shipped users and permissions (NATS_AUTH_CONFIG) with a fresh
// password per user, returned in `users`. Every server it starts takes messages up to
// NATS_MAX_PAYLOAD_BYTES, as the shipped one does (a capture carries a keyed execution's whole answer).
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";

/**
 * A random NATS password that the config's `$VARIABLE` reference reads back as a string: nats-server
 * parses a variable's value as a config value, so one starting with a digit or a sign would be read as
 * a number and fail ("Expected a top-level value to end..."). A letter first, then hex, always reads as text.
 */
export function natsPassword(): string {
  return `p${randomBytes(18).toString("hex")}`;
}
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { NATS_MAX_PAYLOAD_BYTES, type NatsCredentials } from "@agentic/platform";
import { freePort } from "./free-port";

/** The users of the shipped authorization, deploy/k8s/components/nats/auth.conf (`system`: the system account's). */
export const NATS_USERS = ["executor", "ledger", "router", "admin", "system"] as const;
export type NatsUser = (typeof NATS_USERS)[number];

/** The shipped NATS authorization (users and subject permissions), the one Kubernetes mounts. */
export const NATS_AUTH_CONFIG = join(__dirname, "..", "..", "..", "deploy", "k8s", "components", "nats", "auth.conf");

export interface NatsServerHandle {
  url: string;
  port: number;
  storeDir: string;
  process: ChildProcess;
  /** With `authorization`: each user's credentials (for connectBus, or NATS_USER / NATS_PASSWORD). */
  users?: Record<NatsUser, NatsCredentials>;
  /** Stops the server and removes its store. */
  stop(): Promise<void>;
}

/** The nats-server binary: NATS_SERVER_BIN, else the one on PATH. */
export function natsServerBin(): string {
  return process.env.NATS_SERVER_BIN ?? "nats-server";
}

export interface StartNatsServerOptions {
  readyTimeoutMs?: number;
  authorization?: boolean;
  /** max_payload in bytes; default NATS_MAX_PAYLOAD_BYTES (a smaller one only to test what refuses it). */
  maxPayloadBytes?: number;
}

export async function startNatsServer(opts: StartNatsServerOptions = {}): Promise<NatsServerHandle> {
  const port = await freePort();
  const storeDir = mkdtempSync(join(tmpdir(), "agentic-nats-"));
  const args = ["-a", "127.0.0.1", "-p", String(port), "-js", "-sd", storeDir, "-c", join(storeDir, "nats.conf")];
  let users: Record<NatsUser, NatsCredentials> | undefined;
  const env: NodeJS.ProcessEnv = { ...process.env };
  const conf = [`max_payload: ${opts.maxPayloadBytes ?? NATS_MAX_PAYLOAD_BYTES}`];
  if (opts.authorization) {
    // nats.conf includes the shipped auth.conf, which reads each password from NATS_<USER>_PASSWORD.
    copyFileSync(NATS_AUTH_CONFIG, join(storeDir, "auth.conf"));
    conf.push('include "auth.conf"');
    users = Object.fromEntries(NATS_USERS.map((user) => [user, { user, pass: natsPassword() }])) as Record<NatsUser, NatsCredentials>;
    for (const { user, pass } of Object.values(users)) env[`NATS_${user.toUpperCase()}_PASSWORD`] = pass;
  }
  writeFileSync(join(storeDir, "nats.conf"), `${conf.join("\n")}\n`);
  const child = spawn(natsServerBin(), args, { stdio: ["ignore", "ignore", "pipe"], env });
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
    const timer = setTimeout(
      () => fail(new Error(`nats-server not ready after ${opts.readyTimeoutMs ?? 10_000} ms:\n${log}`)),
      opts.readyTimeoutMs ?? 10_000,
    );
    function fail(err: Error) {
      clearTimeout(timer);
      void stop().finally(() => reject(err));
    }
    child.once("error", (err: NodeJS.ErrnoException) =>
      fail(
        err.code === "ENOENT"
          ? new Error("nats-server not found: install it with `apt-get install nats-server` (or set NATS_SERVER_BIN)")
          : err,
      ),
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
  return { url: `nats://127.0.0.1:${port}`, port, storeDir, process: child, stop, ...(users ? { users } : {}) };
}
