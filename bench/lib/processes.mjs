// Every process the bench starts goes through here, so all of them can be stopped on the way
// out: in reverse start order with SIGTERM (bounded wait, then SIGKILL of its process group),
// and, as a last resort in the 'exit' handler, SIGKILL synchronously.
import { spawn } from "node:child_process";
import { closeSync, openSync, readFileSync } from "node:fs";

/** @type {{ name: string, child: import("node:child_process").ChildProcess, group: boolean }[]} */
const managed = [];

const alive = (child) => child.exitCode === null && child.signalCode === null;

/**
 * Spawns a process in its own process group (so a terminal Ctrl-C reaches only the bench, which
 * then stops everything in order), with stdout and stderr appended to `logFile`.
 */
export function spawnManaged(name, command, args, { cwd, env, logFile }) {
  const fd = openSync(logFile, "a");
  const child = spawn(command, args, { cwd, env, stdio: ["ignore", fd, fd], detached: true });
  closeSync(fd);
  managed.push({ name, child, group: true });
  return child;
}

/** Registers a process started elsewhere (e.g. nats-server from the platform's test helper). */
export function adoptManaged(name, child) {
  managed.push({ name, child, group: false });
}

/** Stops one managed process: SIGTERM, up to `graceMs` to exit, then SIGKILL (its group). */
export async function stopManaged(child, graceMs = 10_000) {
  const entry = managed.find((m) => m.child === child);
  if (!entry || !alive(child)) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = new Promise((resolve) => setTimeout(() => resolve("timeout"), graceMs));
  if ((await Promise.race([exited, timer])) === "timeout") {
    kill(entry, "SIGKILL");
    await Promise.race([exited, new Promise((r) => setTimeout(r, 2_000))]);
  }
}

/** Stops every managed process, newest first. */
export async function stopAllManaged() {
  for (const { child } of [...managed].reverse()) await stopManaged(child);
}

/** Synchronous last resort for process 'exit': SIGKILL whatever is still running. */
export function killAllManagedSync() {
  for (const entry of managed) kill(entry, "SIGKILL");
}

function kill(entry, signal) {
  // Only while our child is alive: a group id is never signalled after its leader is gone.
  if (!alive(entry.child)) return;
  try {
    if (entry.group && entry.child.pid) process.kill(-entry.child.pid, signal);
    else entry.child.kill(signal);
  } catch {
    // already gone
  }
}

/** The last `lines` lines of a log file, for error messages. */
export function tail(file, lines = 15) {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}
