#!/usr/bin/env node
// `npm start`: runs the whole system on one machine (see scripts/system.mjs), prints the base URL
// and a development API key, and stops everything cleanly on Ctrl-C. `npm start` builds first.
// In development the console comes from its Vite dev server through the gateway (edits show at once;
// scripts/console-dev-server.mjs), started beside the services; CONSOLE_DEV=0 serves the built one.
// For tests: AGENTIC_FREE_PORTS=1 picks free loopback ports for everything, and
// AGENTIC_READY_FILE=<path> receives a JSON description (URLs, key, pids, ports) once all is ready.
import { chmodSync, mkdirSync, renameSync, writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { ROOT, missingPrerequisite, startSystem } from "./system.mjs";
import { consoleDevServerWanted, startConsoleDevServer } from "./console-dev-server.mjs";

/** Where `npm run keys` finds the admin identity of the running system (development only, gitignored). */
const ADMIN_KEY_FILE = join(ROOT, ".data", "admin-identity.key");

const env = process.env;
let starting;
let stopping = false;
/** In development: the console's Vite dev server, which the gateway proxies at /console. */
let consoleDevServer;

/** Stops everything, also mid-start: waits for the start in progress to settle, then stops it. */
async function shutdown(code) {
  if (stopping) return;
  stopping = true;
  const system = await starting?.catch(() => undefined);
  // The dev server first: its hot-reload websockets through the gateway close with it, so the gateway stops at once.
  await consoleDevServer?.stop();
  await system?.stop();
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
  const freePorts = env.AGENTIC_FREE_PORTS === "1";
  if (consoleDevServerWanted(env)) {
    consoleDevServer = await startConsoleDevServer({ env, freePorts });
    env.CONSOLE_DEV_SERVER_URL = consoleDevServer.url;
    void consoleDevServer.exited.then(
      (how) => stopping || fail(`the console's dev server exited (${how}); CONSOLE_DEV=0 npm start serves the built console.`),
    );
  }
  starting = startSystem({
    freePorts,
    onExit: (name, code, signal) => fail(`${name} exited (${signal ?? `code ${code}`}); see its log above.`),
  });
}
let system = await starting?.catch((err) => void fail(err.message));
// Started at the same time as the services, the dev server is ready long before them; the banner waits for both.
if (
  system &&
  consoleDevServer &&
  !(await consoleDevServer.ready.then(
    () => true,
    (err) => void fail(err.message),
  ))
)
  system = undefined;

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
  Console:   ${system.baseUrl}/console/   (sign in with an API key${consoleDevServer ? "; edits to console/src show at once" : ""})
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
