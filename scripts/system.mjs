// Starts the whole system on one machine, the embedded default: a private nats-server (JetStream
// in a temp dir) unless NATS_URL is set, then every built service in dependency order, each
// waited on until it reports ready; it resolves (npm start announces the system) only once the
// gateway sees every backend SERVING and a recommend answers through it. The one launcher behind `npm start` (scripts/start.mjs) and
// the benchmark (bench/), so both always run the same system. The ledger keeps the money in one
// SQLite file, by default <repo>/.data/ledger.sqlite, so a restart keeps every balance.
// Every start makes fresh service identities (one Ed25519 key pair per service, in memory only):
// each caller gets its private key, the ledger the public keys it trusts. APP_ENV is development
// unless given, said explicitly, since only an explicit development opens /dev/init. The private
// nats-server runs the shipped users and permissions, each service connecting as its own user.
import { spawn, spawnSync } from "node:child_process";
import { createWriteStream, existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { WARM_UP_USER, newWarmUpApiKey, warmUp } from "./lib/warm-up.mjs";

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
/** The ledger's SQLite file when LEDGER_SQLITE_PATH is not given: stable, so a restart keeps the money (gitignored). */
export const DEFAULT_LEDGER_SQLITE_PATH = join(ROOT, ".data", "ledger.sqlite");
/** Where `npm start`'s top-ups are paid on the sandbox chain (receive-only: no key exists for it). */
export const DEV_TOP_UP_PAY_TO = "0x5af1a0c7e0d1b9e6f2c4d8a3b7e9f1c2d3e4f5a6";
const require = createRequire(join(ROOT, "package.json"));
const { createHealthChecker, randomBase62 } = require("@agentic/platform");
const { startNatsServer, natsServerBin, freePort, generateDevIdentities } = require("@agentic/testing");
const { formatTrustedKeys } = require("@agentic/platform");

const HOST = "127.0.0.1";

/**
 * The services in start order, with their local default ports; each starts only when built. The
 * gateway serves /metrics on its public port in development; elsewhere on a port of its own (its
 * production default, 9464, is the ledger's here).
 */
function serviceTable(gatewayPort, development) {
  return [
    { name: "catalog", main: "services/catalog/dist/main.js", grpcPort: 50051, metricsPort: 9461 },
    { name: "ledger", main: "services/ledger/dist/main.js", grpcPort: 50054, metricsPort: 9464, needsNats: true },
    { name: "router", main: "services/router/dist/main.js", grpcPort: 50052, metricsPort: 9462, needsNats: true },
    { name: "sandbox", main: "sandbox/dist/main.js", httpPort: 8090 },
    { name: "executor", main: "services/executor/dist/main.js", grpcPort: 50053, metricsPort: 9463, needsNats: true },
    { name: "gateway", main: "gateway/dist/main.js", httpPort: gatewayPort, ...(development ? {} : { metricsPort: 9465 }) },
  ];
}

/** APP_ENV as the services read it here: development unless given; development and test open the development helpers. */
function isDevelopment(env) {
  return ["development", "test"].includes(env.APP_ENV ?? "development");
}

/** Says what this machine lacks to run the system, or undefined when nothing. */
export function missingPrerequisite(env = process.env) {
  // npm scripts run the project's own Node 24 (the `node` devDependency, first on their PATH).
  const [major] = process.versions.node.split(".").map(Number);
  if (major < 24) return `Node ${process.versions.node} is too old: run this through npm (npm start), which uses the project's Node 24.`;
  if (!env.NATS_URL && spawnSync(natsServerBin(), ["--version"]).error) {
    return "nats-server is not installed: run `sudo apt-get install nats-server` (or set NATS_URL to a running server).";
  }
  if (!existsSync(join(ROOT, "gateway/dist/main.js"))) return "the workspaces are not built: run `npx turbo run build` (npm start does).";
  return undefined;
}

/** The executor's provider settings for the sandbox at `url`: every provider's base URL on each rail. */
function executorSandboxEnv(url) {
  const { sandboxExecutorEnv, SANDBOX_PRICES_ATOMIC } = require("@agentic/sandbox");
  return sandboxExecutorEnv(url, Object.keys(SANDBOX_PRICES_ATOMIC));
}

async function waitUntil(what, probe, child, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${what} exited during start-up; see its log`);
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs / 1000} s`);
}

async function grpcReady(port) {
  const checker = createHealthChecker(`${HOST}:${port}`);
  try {
    return await checker.check(500);
  } finally {
    checker.close();
  }
}

const httpReady = (url) =>
  fetch(url).then(
    (r) => r.ok,
    () => false,
  );

/** The gateway sees every backend SERVING: /readyz "ok" (a 200 "degraded" pod serves, but not everything). */
const gatewaySeesAllBackends = (origin) =>
  fetch(`${origin}/readyz`).then(
    async (r) => r.ok && (await r.json()).status === "ok",
    () => false,
  );

/** A recommend answers through the gateway: the router has read its catalog and reaches the ledger, and the key is known. */
const recommendAnswers = (baseUrl, apiKey) =>
  fetch(`${baseUrl}/domains/email/capabilities/send/recommend`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
    body: "{}",
  }).then(
    (r) => r.ok,
    () => false,
  );

/**
 * How long a stopped service may take before it is killed: each service bounds its own stop (the
 * executor finishes executions in flight within SHUTDOWN_DEADLINE_MS, 90 s by default; the gateway
 * waits EXECUTE_DEADLINE_MS + 10 s, 100 s, for its requests), so this only catches one that hangs.
 * Killing sooner would cut an execution the vendor has already acted on.
 */
const STOP_BACKSTOP_MS = 120_000;

/** Sends SIGTERM and waits for the exit (SIGKILL after `graceMs`). */
async function stopChild(child, graceMs = STOP_BACKSTOP_MS) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/**
 * Starts the system. Options:
 * - `env`: the environment services inherit (default process.env); `NATS_URL`, `AGENTIC_API_KEYS`,
 *   `PORT` (the gateway's) and `LEDGER_SQLITE_PATH` (default DEFAULT_LEDGER_SQLITE_PATH) are
 *   honoured from it.
 * - `freePorts`: use free loopback ports instead of the local defaults (tests, benchmarks).
 * - `nodeArgs`: extra node flags per service name (e.g. `{ gateway: ["--cpu-prof"] }`).
 * - `logDir`: write each service's output to `<logDir>/<name>.log` instead of this process's stdio.
 * - `onExit(name, code, signal)`: called when a service exits on its own after start-up (an exit
 *   during start-up fails the start instead, which stops everything already started).
 * Resolves `{ origin, baseUrl, apiKey, apiKeyGenerated, sandboxSettingsFile, adminIdentityKey, natsUrl, started, missing,
 * processes, ports, stop() }` (`adminIdentityKey`: the private key of this start's admin identity, for the keys CLI) (`apiKey` is the generated development key, or the first of AGENTIC_API_KEYS);
 * on failure, stops what it started and rejects.
 */
export async function startSystem(opts = {}) {
  const env = opts.env ?? process.env;
  const development = isDevelopment(env);
  const table = serviceTable(Number(env.PORT ?? 8080), development);
  const services = table.filter((s) => existsSync(join(ROOT, s.main)));
  const missing = table.filter((s) => !services.includes(s)).map((s) => s.name);
  if (opts.freePorts) {
    for (const s of services) {
      if (s.grpcPort) s.grpcPort = await freePort();
      if (s.metricsPort) s.metricsPort = await freePort();
      if (s.httpPort && !(s.name === "gateway" && env.PORT)) s.httpPort = await freePort();
    }
  }
  const portOf = (name) => {
    const s = table.find((x) => x.name === name);
    return s.grpcPort ?? s.httpPort;
  };

  const processes = [];
  let nats;
  let ready = false;
  let stopping = false;
  const stop = async () => {
    stopping = true;
    // Reverse start order, like each service's own shutdown.
    for (const { child } of [...processes].reverse()) await stopChild(child);
    await nats?.stop();
  };

  try {
    const natsUrl = env.NATS_URL ?? (nats = await startNatsServer({ authorization: true })).url;
    // On our own server, each service is its NATS user; on a given NATS_URL, the environment says.
    const natsUserOf = (name) => (nats?.users?.[name] ? { NATS_USER: nats.users[name].user, NATS_PASSWORD: nats.users[name].pass } : {});
    const apiKey = env.AGENTIC_API_KEYS ? env.AGENTIC_API_KEYS.split(",")[0].split(":")[0] : `aak_${randomBase62(40)}`;
    // Development only (the only place /dev/init funds it): the warm-up's paid executes run on an account of their own.
    const warmUpApiKey = (env.APP_ENV ?? "development") === "development" ? newWarmUpApiKey() : undefined;
    const ledgerApiKeys = [env.AGENTIC_API_KEYS || `${apiKey}:dev-user`, warmUpApiKey && `${warmUpApiKey}:${WARM_UP_USER}`];
    const identities = generateDevIdentities();
    // Each gRPC service trusts the identities that call it, no other: the ledger also the admin (keys CLI).
    const trust = (...names) => formatTrustedKeys(Object.fromEntries(names.map((n) => [n, identities.publicKeys[n]])));
    const TRUST = {
      ledger: trust("gateway", "router", "executor", "admin"),
      executor: trust("gateway"),
      router: trust("gateway"),
    };
    /** Next to the ledger's file: `.data/` for `npm start`, a test's own temp dir for a test. */
    const sandboxSettingsFile = join(dirname(env.LEDGER_SQLITE_PATH || DEFAULT_LEDGER_SQLITE_PATH), "sandbox-settings.txt");
    const addrs = {
      CATALOG_ADDR: `${HOST}:${portOf("catalog")}`,
      ROUTER_ADDR: `${HOST}:${portOf("router")}`,
      EXECUTOR_ADDR: `${HOST}:${portOf("executor")}`,
      LEDGER_ADDR: `${HOST}:${portOf("ledger")}`,
    };
    const envOf = (service) => ({
      APP_ENV: "development",
      ...env,
      OTEL_SERVICE_NAME: service.name,
      ...(identities.privateKeys[service.name] && service.name !== "ledger"
        ? { SERVICE_IDENTITY_KEY: identities.privateKeys[service.name] }
        : {}),
      ...(TRUST[service.name] ? { TRUSTED_SERVICE_KEYS: TRUST[service.name] } : {}),
      ...addrs,
      PORT: String(service.grpcPort ?? service.httpPort),
      ...(service.metricsPort ? { METRICS_PORT: String(service.metricsPort) } : {}),
      ...(service.needsNats ? { NATS_URL: natsUrl, ...natsUserOf(service.name) } : {}),
      ...(service.name === "ledger" ? { AGENTIC_API_KEYS: ledgerApiKeys.filter(Boolean).join(",") } : {}),
      ...(service.name === "ledger" ? { LEDGER_SQLITE_PATH: env.LEDGER_SQLITE_PATH || DEFAULT_LEDGER_SQLITE_PATH } : {}),
      // Development: top-ups are paid through the sandbox's x402 facilitator (on a testnet) unless the environment
      // names a real one. Elsewhere only top-ups the environment configures (TOP_UP_*) are taken: testnet tokens buy
      // no credits outside development, so the sandbox's facilitator is never wired there.
      ...(service.name === "ledger" && development && !env.TOP_UP_FACILITATOR_URL
        ? {
            TOP_UP_FACILITATOR_URL: `http://${HOST}:${portOf("sandbox")}/facilitator`,
            TOP_UP_PAY_TO: env.TOP_UP_PAY_TO || DEV_TOP_UP_PAY_TO,
          }
        : {}),
      ...(service.name === "executor" ? executorSandboxEnv(`http://${HOST}:${portOf("sandbox")}`) : {}),
      // The sandbox's ~150 provider settings go to a file, not the terminal a person starts from.
      ...(service.name === "sandbox" ? { SANDBOX_SETTINGS_FILE: sandboxSettingsFile } : {}),
    });
    /** Spawns one service (appending to its log) and waits until it reports ready. */
    const launch = async (service) => {
      const logFile = opts.logDir ? join(opts.logDir, `${service.name}.log`) : undefined;
      const args = [...(opts.nodeArgs?.[service.name] ?? []), "--require", "@agentic/platform/telemetry", join(ROOT, service.main)];
      const child = spawn(process.execPath, args, {
        cwd: ROOT,
        env: envOf(service),
        stdio: ["ignore", logFile ? "pipe" : "inherit", logFile ? "pipe" : "inherit"],
      });
      if (logFile) {
        const out = createWriteStream(logFile, { flags: "a" });
        child.stdout.pipe(out);
        child.stderr.pipe(out);
      }
      const entry = { name: service.name, pid: child.pid, child, logFile };
      child.on("exit", (code, signal) => {
        if (ready && !stopping && !entry.killedOnPurpose) opts.onExit?.(service.name, code, signal);
      });
      const at = processes.findIndex((p) => p.name === service.name);
      if (at >= 0) processes[at] = entry;
      else processes.push(entry);

      if (service.grpcPort) await waitUntil(service.name, () => grpcReady(service.grpcPort), child);
      else if (service.name === "gateway") await waitUntil("gateway", () => httpReady(`http://${HOST}:${service.httpPort}/readyz`), child);
      else await waitUntil(service.name, () => httpReady(`http://${HOST}:${service.httpPort}/healthz`), child);
    };
    for (const service of services) await launch(service);
    const origin = `http://localhost:${portOf("gateway")}`;
    const baseUrl = `${origin}${env.API_BASE_PATH ?? "/api/agentic-api"}`;
    // Announced only when ready end to end, not just each process by itself: the gateway sees every
    // backend SERVING (each reports it once its own dependencies answer), and a call crosses them.
    const gateway = processes.find((p) => p.name === "gateway");
    if (gateway) {
      const local = `http://${HOST}:${portOf("gateway")}`;
      await waitUntil("the gateway's view of the backends", () => gatewaySeesAllBackends(local), gateway.child);
      const localBaseUrl = local + baseUrl.slice(origin.length);
      if (services.some((s) => s.name === "router"))
        await waitUntil("a recommend through the gateway", () => recommendAnswers(localBaseUrl, apiKey), gateway.child);
      await warmUp({ baseUrl: localBaseUrl, apiKey, warmUpApiKey });
    }
    ready = true;
    return {
      origin,
      baseUrl,
      apiKey,
      apiKeyGenerated: !env.AGENTIC_API_KEYS,
      sandboxSettingsFile: services.some((s) => s.name === "sandbox") ? sandboxSettingsFile : undefined,
      adminIdentityKey: identities.privateKeys.admin,
      natsUrl,
      natsProcess: nats?.process,
      natsStoreDir: nats?.storeDir,
      started: services.map((s) => s.name),
      missing,
      processes,
      ports: Object.fromEntries(services.map((s) => [s.name, { port: s.grpcPort ?? s.httpPort, metricsPort: s.metricsPort }])),
      /** Fault tests: sends `signal` (e.g. SIGKILL) to one service and resolves its exit `{ code, signal }`; onExit is not called. */
      async kill(name, signal = "SIGKILL") {
        const entry = processes.find((p) => p.name === name);
        if (!entry || entry.child.exitCode !== null || entry.child.signalCode !== null) return undefined;
        entry.killedOnPurpose = true;
        const exited = new Promise((r) => entry.child.once("exit", (code, exitSignal) => r({ code, signal: exitSignal })));
        entry.child.kill(signal);
        return exited;
      },
      /** Fault tests: starts a stopped service again on its port and with its environment, and waits until it is ready. */
      async restart(name) {
        const service = services.find((s) => s.name === name);
        if (!service) throw new Error(`no service ${name}`);
        await launch(service);
      },
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
