// Starts the system for the bench through the same launcher as `npm start` (scripts/system.mjs), on
// free ports so it can run beside a developer's `npm start`, with every service's output in the
// bench's log folder; and the bare comparison servers. Every process is registered with the
// bench's process manager, so Ctrl-C and failures stop exactly what the bench started.
import { join } from "node:path";
import { startSystem as startWholeSystem } from "../../scripts/system.mjs";
import { ROOT } from "./paths.mjs";
import { adoptManaged, spawnManaged, tail } from "./processes.mjs";

const HOST = "127.0.0.1";

/**
 * Starts the system; resolves { baseUrl, devKey, natsUrl, natsStoreDir, started, missing,
 * processes: [{ name, pid }], stop() }. `nodeArgs` adds node flags per service (e.g. --cpu-prof for
 * the gateway); `serviceEnv` is added to every service's environment (experiments);
 * `ledgerSqlitePath` is the ledger's database (the bench passes a fresh one per run).
 * @param {{ logDir: string, nodeArgs?: Record<string, string[]>, serviceEnv?: Record<string, string>, ledgerSqlitePath: string }} opts
 */
export async function startSystem({ logDir, nodeArgs = {}, serviceEnv = {}, ledgerSqlitePath }) {
  const env = { ...process.env, LEDGER_SQLITE_PATH: ledgerSqlitePath, ...serviceEnv };
  const system = await startWholeSystem({ env, freePorts: true, nodeArgs, logDir });
  if (system.natsProcess) adoptManaged("nats", system.natsProcess);
  for (const p of system.processes) adoptManaged(p.name, p.child);
  const nats = system.natsProcess ? [{ name: "nats", pid: system.natsProcess.pid }] : [];
  return { ...system, devKey: system.apiKey, processes: [...nats, ...system.processes] };
}

async function waitUntil(what, probe, { child, logFile, timeoutMs = 30_000 }) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(`${what} exited during start (${child.signalCode ?? `code ${child.exitCode}`}); log ${logFile}:\n${tail(logFile)}`);
    }
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs / 1000} s; log ${logFile}:\n${tail(logFile)}`);
}

/**
 * Starts a bare comparison server (node:http or express 5) in its own process, serving `bodyFile`
 * at `path`. Returns { url, pid, child }.
 */
export async function startBareServer(kind, { bodyFile, path, logFile }) {
  const child = spawnManaged(`bare-${kind}`, process.execPath, [join(ROOT, "bench/lib/bare-server.mjs"), kind, bodyFile, path], {
    cwd: ROOT,
    env: process.env,
    logFile,
  });
  let port;
  await waitUntil(
    `bare ${kind} server`,
    async () => {
      const m = /listening on 127\.0\.0\.1:(\d+)/.exec(tail(logFile, 5));
      port = m ? Number(m[1]) : undefined;
      return port !== undefined;
    },
    { child, logFile, timeoutMs: 10_000 },
  );
  return { url: `http://${HOST}:${port}${path}`, pid: child.pid, child };
}
