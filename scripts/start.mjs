#!/usr/bin/env node
// `npm start`: runs the whole system on one machine (see scripts/system.mjs), prints the base URL
// and a development API key, and stops everything cleanly on Ctrl-C. `npm start` builds first.
// For tests: AGENTIC_FREE_PORTS=1 picks free loopback ports for everything, and
// AGENTIC_READY_FILE=<path> receives a JSON description (URLs, key, pids, ports) once all is ready.
import { spawn } from "node:child_process";
import { chmodSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { ROOT, missingPrerequisite, startSystem } from "./system.mjs";

/** Where `npm run keys` finds the admin identity of the running system (development only, gitignored). */
const ADMIN_KEY_FILE = join(ROOT, ".data", "admin-identity.key");

const env = process.env;
let starting;
let stopping = false;
/** `CONSOLE_DEV=1 npm start`: the console's Vite dev server, which the gateway proxies at /console (edits show at once). */
let consoleDevServer;

/** Stops everything, also mid-start: waits for the start in progress to settle, then stops it. */
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  const system = await starting?.catch(() => undefined);
  await system?.stop();
  consoleDevServer?.kill("SIGTERM");
  process.exit(code);
}

function fail(message) {
  console.error(`npm start: ${message}`);
  void shutdown(1);
}

process.on("SIGINT", () => void shutdown(0));
process.on("SIGTERM", () => void shutdown(0));

const missing = missingPrerequisite(env);
if (missing) fail(missing);
else {
  if (env.CONSOLE_DEV === "1") {
    const port = env.CONSOLE_DEV_PORT ?? "5173";
    consoleDevServer = spawn(process.execPath, [join(ROOT, "node_modules", "vite", "bin", "vite.js"), "--clearScreen", "false"], {
      cwd: join(ROOT, "console"),
      env: { ...env, CONSOLE_DEV_PORT: port },
      stdio: "inherit",
    });
    env.CONSOLE_DEV_SERVER_URL = `http://127.0.0.1:${port}`;
  }
  starting = startSystem({
    freePorts: env.AGENTIC_FREE_PORTS === "1",
    onExit: (name, code, signal) => fail(`${name} exited (${signal ?? `code ${code}`}); see its log above.`),
  });
}
const system = await starting?.catch((err) => void fail(err.message));

if (system && !stopping) {
  if (env.AGENTIC_READY_FILE) {
    const pids = Object.fromEntries(system.processes.map((p) => [p.name, p.pid]));
    const { origin, baseUrl, apiKey, adminIdentityKey, natsUrl, started, ports } = system;
    // Written aside, then renamed: a reader that sees the file never sees it half written.
    writeFileSync(
      `${env.AGENTIC_READY_FILE}.tmp`,
      JSON.stringify({ origin, baseUrl, apiKey, adminIdentityKey, natsUrl, started, pids, ports }),
    );
    renameSync(`${env.AGENTIC_READY_FILE}.tmp`, env.AGENTIC_READY_FILE);
  } else {
    // This start's admin identity for `npm run keys` (a new one at every start; owner-only file).
    mkdirSync(dirname(ADMIN_KEY_FILE), { recursive: true });
    writeFileSync(ADMIN_KEY_FILE, `${system.adminIdentityKey}\n`, { mode: 0o600 });
    chmodSync(ADMIN_KEY_FILE, 0o600);
  }
  console.log(`
Agentic API is running on Node ${process.versions.node} (${system.started.join(", ")}; NATS ${system.natsUrl}).
  Base URL:  ${system.baseUrl}
  Console:   ${system.baseUrl}/console/   (sign in with an API key)
  Try:       curl ${system.baseUrl}/domains${
    system.apiKeyGenerated
      ? `
  API key:   ${system.apiKey}   (user dev-user; development only)
  Wallet:    curl -X POST ${system.baseUrl}/dev/init -H 'content-type: application/json' -d '{"balanceCredits": 1000}'`
      : ""
  }${system.sandboxSettingsFile ? `\n  Sandbox:   its provider settings are in ${shownPath(system.sandboxSettingsFile)}` : ""}
Press Ctrl-C to stop.`);
}

/** `path` relative to where `npm start` ran when it is under it (`.data/…`), else as it is. */
function shownPath(path) {
  const shown = relative(process.cwd(), path);
  return shown.startsWith("..") ? path : shown;
}
