#!/usr/bin/env node
// `npm start`: runs the whole system on one machine (the embedded default). Starts a private
// nats-server (JetStream in a temp dir) unless NATS_URL is set, then every service that exists,
// waits until each reports SERVING, prints the base URL and a development API key, and stops
// everything cleanly on Ctrl-C. Run `npm run build` first (npm start does it for you).
// For tests and benchmarks: AGENTIC_FREE_PORTS=1 picks free loopback ports for everything, and
// AGENTIC_READY_FILE=<path> receives a JSON description (URLs, key, pids) once all is ready.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const require = createRequire(join(root, "package.json"));
const { createHealthChecker, randomBase62 } = require("@agentic/platform");
const { startNatsServer, natsServerBin, freePort } = require("@agentic/platform/testing");

const env = process.env;
const freePorts = env.AGENTIC_FREE_PORTS === "1";
const host = "127.0.0.1";

/** The services in start order; each is started only when it has been built. Ports are local defaults. */
const SERVICES = [
  { name: "catalog", main: "services/catalog/dist/main.js", grpcPort: 50051, metricsPort: 9461 },
  { name: "ledger", main: "services/ledger/dist/main.js", grpcPort: 50054, metricsPort: 9464, needsNats: true },
  { name: "router", main: "services/router/dist/main.js", grpcPort: 50052, metricsPort: 9462, needsNats: true },
  { name: "sandbox", main: "sandbox/dist/main.js", httpPort: 8090 },
  { name: "executor", main: "services/executor/dist/main.js", grpcPort: 50053, metricsPort: 9463, needsNats: true },
  { name: "gateway", main: "gateway/dist/main.js", httpPort: Number(env.PORT ?? 8080) },
];

/** With AGENTIC_FREE_PORTS=1, every port becomes a free loopback port (PORT still wins for the gateway). */
async function assignPorts() {
  if (!freePorts) return;
  for (const service of SERVICES) {
    if (service.grpcPort) service.grpcPort = await freePort();
    if (service.metricsPort) service.metricsPort = await freePort();
    if (service.httpPort && !(service.name === "gateway" && env.PORT)) service.httpPort = await freePort();
  }
}

const portOf = (name) => {
  const s = SERVICES.find((x) => x.name === name);
  return s.grpcPort ?? s.httpPort;
};

const children = [];
let nats;
let stopping = false;

function fail(message) {
  console.error(`npm start: ${message}`);
  void shutdown(1);
}

function checkPrerequisites() {
  const [major, minor] = process.versions.node.split(".").map(Number);
  if (major < 20 || (major === 20 && minor < 19)) fail(`Node ${process.versions.node} is too old: install Node 20.19 or newer.`);
  if (!env.NATS_URL && spawnSync(natsServerBin(), ["--version"]).error) {
    fail("nats-server is not installed: run `sudo apt-get install nats-server` (or set NATS_URL to a running server).");
  }
}

function start(service, serviceEnv) {
  const child = spawn(process.execPath, ["--require", "@agentic/platform/telemetry", join(root, service.main)], {
    cwd: root,
    env: { ...env, OTEL_SERVICE_NAME: service.name, ...serviceEnv },
    stdio: ["ignore", "inherit", "inherit"],
  });
  child.on("exit", (code, signal) => {
    if (!stopping) fail(`${service.name} exited (${signal ?? `code ${code}`}); see its log above.`);
  });
  children.push({ service, child });
}

async function waitUntil(what, probe, timeoutMs = 30_000) {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    if (await probe()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} did not become ready within ${timeoutMs / 1000} s`);
}

async function waitForGrpc(service) {
  const checker = createHealthChecker(`${host}:${service.grpcPort}`);
  try {
    await waitUntil(service.name, () => checker.check(500));
  } finally {
    checker.close();
  }
}

async function waitForHttp(name, url) {
  await waitUntil(name, () => fetch(url).then((r) => r.ok, () => false));
}

/**
 * The executor's provider settings for the sandbox at `url`: every provider's base URL on each rail
 * (<PROVIDER>_BASE_URL, _AGENTCASH_BASE_URL, _MPP_BASE_URL), the sandbox's API keys, a fresh service
 * wallet for x402 and MPP (the sandbox funds new payers) and a default sender.
 */
function executorSandboxEnv(url) {
  const { sandboxExecutorEnv, SANDBOX_PRICES_ATOMIC } = require("@agentic/sandbox");
  return sandboxExecutorEnv(url, Object.keys(SANDBOX_PRICES_ATOMIC));
}

async function shutdown(code = 0) {
  if (stopping) return;
  stopping = true;
  // Reverse start order, like each service's own shutdown.
  for (const { child } of [...children].reverse()) {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      await exited;
    }
  }
  await nats?.stop();
  process.exit(code);
}

async function main() {
  process.on("SIGINT", () => void shutdown(0));
  process.on("SIGTERM", () => void shutdown(0));
  checkPrerequisites();
  await assignPorts();

  const natsUrl = env.NATS_URL ?? (nats = await startNatsServer()).url;
  const devKey = env.AGENTIC_API_KEYS ? undefined : `aak_${randomBase62(40)}`;
  const addrs = {
    CATALOG_ADDR: `${host}:${portOf("catalog")}`,
    ROUTER_ADDR: `${host}:${portOf("router")}`,
    EXECUTOR_ADDR: `${host}:${portOf("executor")}`,
    LEDGER_ADDR: `${host}:${portOf("ledger")}`,
  };
  const started = [];
  for (const service of SERVICES) {
    if (!existsSync(join(root, service.main))) continue;
    const serviceEnv = {
      ...addrs,
      PORT: String(service.grpcPort ?? service.httpPort),
      ...(service.metricsPort ? { METRICS_PORT: String(service.metricsPort) } : {}),
      ...(service.needsNats ? { NATS_URL: natsUrl } : {}),
      ...(service.name === "ledger" && devKey ? { AGENTIC_API_KEYS: `${devKey}:dev-user` } : {}),
      ...(service.name === "executor" ? executorSandboxEnv(`http://${host}:${portOf("sandbox")}`) : {}),
    };
    start(service, serviceEnv);
    if (service.grpcPort) await waitForGrpc(service);
    else if (service.name === "gateway") await waitForHttp("gateway", `http://${host}:${service.httpPort}/readyz`);
    else await waitForHttp(service.name, `http://${host}:${service.httpPort}/healthz`);
    started.push(service.name);
  }

  const origin = `http://localhost:${portOf("gateway")}`;
  const base = `${origin}/api/agentic-api`;
  if (env.AGENTIC_READY_FILE) {
    const pids = Object.fromEntries(children.map(({ service, child }) => [service.name, child.pid]));
    const ports = Object.fromEntries(SERVICES.map((s) => [s.name, { port: s.grpcPort ?? s.httpPort, metricsPort: s.metricsPort }]));
    writeFileSync(env.AGENTIC_READY_FILE, JSON.stringify({ origin, baseUrl: base, apiKey: devKey, natsUrl, started, pids, ports }));
  }
  console.log(`
Agentic API is running (${started.join(", ")}; NATS ${natsUrl}).
  Base URL:  ${base}
  Try:       curl ${base}/domains${devKey ? `
  API key:   ${devKey}   (user dev-user; development only)` : ""}
Press Ctrl-C to stop.`);
}

main().catch((err) => fail(err.message));
