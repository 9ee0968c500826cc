// Starts the system on its embedded default, the way scripts/start.mjs does (same services, start
// order, ports, environment and telemetry preload; a private nats-server), but with every process
// a direct child of the bench: the bench knows each pid for RSS/CPU sampling, can start the
// gateway under --cpu-prof, and stops exactly what it started. start.mjs cannot be imported (it
// runs on load), so its service table is mirrored here and checked against it on every run.
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { ROOT, rootRequire } from "./paths.mjs";
import { adoptManaged, spawnManaged, stopManaged, tail } from "./processes.mjs";

const HOST = "127.0.0.1";

/** The services in start order, as in scripts/start.mjs. */
export function serviceTable(gatewayPort) {
  return [
    { name: "catalog", main: "services/catalog/dist/main.js", grpcPort: 50051, extraPorts: [9461] },
    { name: "ledger", main: "services/ledger/dist/main.js", grpcPort: 50054, needsNats: true },
    { name: "router", main: "services/router/dist/main.js", grpcPort: 50052, needsNats: true, extraPorts: [9462] },
    { name: "sandbox", main: "sandbox/dist/main.js", httpPort: 8090 },
    { name: "executor", main: "services/executor/dist/main.js", grpcPort: 50053, needsNats: true },
    { name: "gateway", main: "gateway/dist/main.js", httpPort: gatewayPort },
  ];
}

/** Differences between the mirrored table and scripts/start.mjs (empty when they agree). */
export function startScriptDrift() {
  let text;
  try {
    text = readFileSync(join(ROOT, "scripts/start.mjs"), "utf8");
  } catch {
    return ["scripts/start.mjs not found"];
  }
  const warnings = [];
  const mains = [...text.matchAll(/main:\s*"([^"]+)"/g)].map((m) => m[1]);
  const ours = serviceTable(8080).map((s) => s.main);
  if (mains.join() !== ours.join()) warnings.push(`start.mjs starts [${mains.join(", ")}], the bench [${ours.join(", ")}]`);
  for (const s of serviceTable(8080)) {
    if (s.grpcPort && !text.includes(`grpcPort: ${s.grpcPort}`)) warnings.push(`${s.name}: start.mjs no longer uses gRPC port ${s.grpcPort}`);
  }
  for (const needle of ["--require\", \"@agentic/platform/telemetry", "AGENTIC_API_KEYS: `${devKey}:dev-user`", "SANDBOX_URL"]) {
    if (!text.includes(needle)) warnings.push(`start.mjs no longer contains ${needle}; check bench/lib/system.mjs`);
  }
  return warnings;
}

/** Throws a clear error naming every fixed port that something else already listens on. */
export async function assertPortsFree(ports) {
  const busy = [];
  for (const { port, what } of ports) {
    const free = await new Promise((resolve) => {
      const srv = createServer();
      srv.once("error", () => resolve(false));
      srv.listen(port, HOST, () => srv.close(() => resolve(true)));
    });
    if (!free) busy.push(`${port} (${what})`);
  }
  if (busy.length) {
    throw new Error(
      `port(s) already in use: ${busy.join(", ")}. Another \`npm start\` or bench is probably running; stop it first ` +
        "(the system's service ports are fixed, as in npm start).",
    );
  }
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

async function httpAnswers(url, requireOk) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(1_000) });
    await res.arrayBuffer();
    return requireOk ? res.ok : true;
  } catch {
    return false;
  }
}

/**
 * Starts nats-server and every built service. Returns the base URL, the development API key,
 * the started processes ({ name, pid, child }) and stop().
 * @param {{ gatewayPort: number, logDir: string, nodeArgs?: Record<string, string[]>,
 *   serviceEnv?: Record<string, string>, log: (line: string) => void }} opts
 * `nodeArgs` adds node flags per service (e.g. --cpu-prof for the gateway); `serviceEnv` is added
 * to every service's environment (experiments; empty for the default).
 */
export async function startSystem({ gatewayPort, logDir, nodeArgs = {}, serviceEnv: extraEnv = {}, log }) {
  const { createHealthChecker, randomBase62 } = rootRequire("@agentic/platform");
  const { startNatsServer } = rootRequire("@agentic/platform/testing");
  const env = process.env;
  const table = serviceTable(gatewayPort);
  const services = table.filter((s) => existsSync(join(ROOT, s.main)));
  const missing = table.filter((s) => !services.includes(s)).map((s) => s.name);
  if (!services.some((s) => s.name === "gateway")) throw new Error("gateway/dist/main.js is missing: build first (npx turbo run build)");

  await assertPortsFree(
    services.flatMap((s) => [{ port: s.grpcPort ?? s.httpPort, what: s.name }, ...(s.extraPorts ?? []).map((port) => ({ port, what: `${s.name} metrics` }))]),
  );

  const processes = [];
  let nats;
  const stop = async () => {
    for (const p of [...processes].reverse()) if (p.name !== "nats") await stopManaged(p.child);
    await nats?.stop();
  };

  try {
    let natsUrl = env.NATS_URL;
    if (!natsUrl) {
      nats = await startNatsServer();
      adoptManaged("nats", nats.process);
      processes.push({ name: "nats", pid: nats.process.pid, child: nats.process });
      natsUrl = nats.url;
    }
    const devKey = env.AGENTIC_API_KEYS ? env.AGENTIC_API_KEYS.split(",")[0].split(":")[0] : `aak_${randomBase62(40)}`;
    const addrs = { CATALOG_ADDR: `${HOST}:50051`, ROUTER_ADDR: `${HOST}:50052`, EXECUTOR_ADDR: `${HOST}:50053`, LEDGER_ADDR: `${HOST}:50054` };

    for (const service of services) {
      const serviceEnv = {
        ...env,
        OTEL_SERVICE_NAME: service.name,
        ...addrs,
        PORT: String(service.grpcPort ?? service.httpPort),
        ...(service.needsNats ? { NATS_URL: natsUrl } : {}),
        ...(service.name === "ledger" && !env.AGENTIC_API_KEYS ? { AGENTIC_API_KEYS: `${devKey}:dev-user` } : {}),
        ...(service.name === "executor" ? { SANDBOX_URL: `http://${HOST}:8090` } : {}),
        ...extraEnv,
      };
      const logFile = join(logDir, `${service.name}.log`);
      const child = spawnManaged(service.name, process.execPath, [...(nodeArgs[service.name] ?? []), "--require", "@agentic/platform/telemetry", join(ROOT, service.main)], {
        cwd: ROOT,
        env: serviceEnv,
        logFile,
      });
      processes.push({ name: service.name, pid: child.pid, child, logFile });
      const wait = { child, logFile };
      if (service.grpcPort) {
        const checker = createHealthChecker(`${HOST}:${service.grpcPort}`);
        try {
          await waitUntil(service.name, () => checker.check(500), wait);
        } finally {
          checker.close();
        }
      } else if (service.name === "gateway") {
        await waitUntil("gateway", () => httpAnswers(`http://${HOST}:${gatewayPort}/readyz`, true), wait);
      } else {
        // start.mjs waits for /healthz to answer 200; any HTTP answer is taken as serving here,
        // so a sandbox build from before it had /healthz still starts.
        await waitUntil(service.name, () => httpAnswers(`http://${HOST}:${service.httpPort}/healthz`, false), wait);
      }
      log(`  started ${service.name} (pid ${child.pid})`);
    }
    return {
      baseUrl: `http://${HOST}:${gatewayPort}${env.API_BASE_PATH ?? "/api/agentic-api"}`,
      devKey,
      natsUrl,
      natsStoreDir: nats?.storeDir,
      started: services.map((s) => s.name),
      missing,
      processes,
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
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
