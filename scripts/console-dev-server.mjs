// `npm start` in development: the console's Vite dev server, which the gateway proxies at
// <API base>/console (CONSOLE_DEV_SERVER_URL), hot-reload websocket included, so edits under console/src
// show at once on the gateway's one origin. CONSOLE_DEV=0 serves the built console instead, as
// production does (and as any APP_ENV but development and test does: the gateway ignores the dev server there).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { join } from "node:path";
import { ROOT } from "./system.mjs";

const require = createRequire(join(ROOT, "package.json"));
const { freePort } = require("@agentic/testing");

const VITE = join(ROOT, "node_modules", "vite", "bin", "vite.js");
/** Vite's usual port, when free and CONSOLE_DEV_PORT does not name another. */
const DEFAULT_PORT = 5173;
const HOST = "127.0.0.1";
const READY_TIMEOUT_MS = 30_000;

/** Whether `npm start` runs the console from its dev server (`env` as the services will read it). */
export function consoleDevServerWanted(env) {
  return env.CONSOLE_DEV !== "0" && ["development", "test"].includes(env.APP_ENV ?? "development") && existsSync(VITE);
}

function portIsFree(port) {
  return new Promise((resolve) => {
    const probe = createServer()
      .once("error", () => resolve(false))
      .listen(port, HOST, () => probe.close(() => resolve(true)));
  });
}

/** The dev server's port: CONSOLE_DEV_PORT, else 5173 unless taken (or free ports are asked for), else any free one. */
async function devServerPort(env, freePorts) {
  if (env.CONSOLE_DEV_PORT) return Number(env.CONSOLE_DEV_PORT);
  if (!freePorts && (await portIsFree(DEFAULT_PORT))) return DEFAULT_PORT;
  return freePort();
}

/**
 * Starts Vite's dev server for the console; `ready` settles once it answers the console's page (or
 * rejects when it exits first). Its own output is kept to warnings and errors: the gateway's address is
 * the one to open, not the dev server's.
 */
export async function startConsoleDevServer({ env, freePorts }) {
  const port = await devServerPort(env, freePorts);
  const url = `http://${HOST}:${port}`;
  const child = spawn(process.execPath, [VITE, "--clearScreen", "false", "--logLevel", "warn"], {
    cwd: join(ROOT, "console"),
    env: { ...env, CONSOLE_DEV_PORT: String(port) },
    stdio: ["ignore", "inherit", "inherit"],
  });
  const exited = new Promise((resolve) => child.once("exit", (code, signal) => resolve(signal ?? `code ${code}`)));
  const page = `${url}${env.API_BASE_PATH ?? "/api/agentic-api"}/console/`;
  const ready = (async () => {
    const until = Date.now() + READY_TIMEOUT_MS;
    let gone;
    void exited.then((how) => (gone = how));
    while (Date.now() < until) {
      if (gone !== undefined)
        throw new Error(`the console's dev server exited (${gone}); CONSOLE_DEV=0 npm start serves the built console`);
      if ((await fetch(page).catch(() => undefined))?.ok) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(
      `the console's dev server did not answer within ${READY_TIMEOUT_MS / 1000} s; CONSOLE_DEV=0 npm start serves the built console`,
    );
  })();
  // Awaited only once the services are up: a failure before that is not an unhandled rejection (the exit is reported as it happens).
  ready.catch(() => undefined);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
  };
  return { url, ready, stop, exited };
}
