#!/usr/bin/env node
// `npm run bench`: starts the system on its embedded default plus a bare node:http and a bare
// express 5 server serving the same bytes as GET /domains, drives each scenario with a fixed
// closed-loop load, samples RSS/CPU of every process, prints a table, ratios and targets, writes
// bench/results/<date>.json, and stops everything it started. `--help` lists the flags.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, relative } from "node:path";
import { parseArgs } from "node:util";
import { summarizeProfile, printProfile } from "./lib/cpuprofile.mjs";
import { runAbusiveKey } from "./lib/abusive-key.mjs";
import { runCatalogScale } from "./lib/catalog-scale.mjs";
import { runGrpcLoad } from "./lib/grpc-load.mjs";
import { runHttpLoad } from "./lib/http-load.mjs";
import { analyzeHops, formatHops, startOtlpReceiver, tracingEnv } from "./lib/hops.mjs";
import { describeMachine } from "./lib/machine.mjs";
import { RESULTS_DIR, ROOT, rootRequire } from "./lib/paths.mjs";
import { killAllManagedSync, stopAllManaged } from "./lib/processes.mjs";
import { ProcSampler } from "./lib/proc-sampler.mjs";
import {
  CHAT,
  chatExecuteRequest,
  emailSendUrl,
  fundDevWallet,
  idempotencyKey,
  LIMITS_OUT_OF_REACH,
  PRODUCTION_SAMPLING,
  RECOMMEND_BODY,
  recommendRequest,
} from "./lib/scenario-requests.mjs";
import {
  computeRatios,
  computeTargets,
  cpuPerRequestUs,
  formatCompare,
  formatCpuPerRequest,
  formatRatios,
  formatTable,
  formatTargets,
} from "./lib/report.mjs";
import { startBareServer, startSystem } from "./lib/system.mjs";
import { portkeyHeaders, startPortkey } from "./lib/portkey.mjs";
import { productionNodeArgs } from "./lib/production-node-flags.mjs";

/** gw-abusive-key: how many well-behaved keys, and the rate each sends (per second). */
const GOOD_KEYS = 16;
const GOOD_RATE = 10;

const HELP = `usage: npm run bench -- [flags]     (or: node bench/run.mjs [flags])

  --duration <s>       measured seconds per scenario (default 10; env BENCH_DURATION)
  --connections <n>    concurrent connections / in-flight gRPC calls (default 32; env BENCH_CONNECTIONS);
                       execute always runs at 16
  --warmup <s>         discarded warm-up per scenario (default 2; 1 with --quick)
  --only <ids>         comma-separated scenario ids (env BENCH_ONLY):
                       bare-http, bare-express, gw-domains, gw-contract, gw-recommend, gw-recommend-1,
                       gw-recommend-300 and gw-route-300 (POST recommend and POST /route at 300 req/s),
                       gw-execute, gw-execute-1 (the -1 ones: one connection, the unloaded latency),
                       gw-execute-ranked, gw-execute-ranked-1 (execute with no provider named: ranked first),
                       grpc-catalog, soak, gw-abusive-key (only when named: see below)
  --quick              3 s per scenario, 1 s warm-up: a smoke run
  --soak               also run executes for 60 s (--soak-duration <s>) and report each service's RSS
                       start vs end
  --no-hops            skip the traced pass: after the load scenarios, the system is started again with
                       every service exporting its spans to the bench, one recommend and one execute
                       connection run for --hops-duration <s> (default 5; 2 with --quick), and each hop's
                       share of a request is printed (see bench/lib/hops.mjs)
  --profile            start the gateway under node --cpu-prof and print its top self-time functions
                       (implies --only gw-domains unless --only is given; profiling slows the gateway)
  --profile-service <name>  profile another service instead (router, catalog, ledger, executor,
                       sandbox); implies --profile; pair it with --only (e.g. gw-recommend)
  --catalog <times>    instead of the scenarios: today's catalog against one generated <times> its size
                       (npm run catalog:generate, plus a capability with 200 routes), each target of the
                       catalog at scale side by side; writes bench/measured/catalog-x<times>.json
  --compare <file>     print deltas against an earlier bench/results/*.json
  --no-build           do not run \`npx turbo run build\` first
  --keep-logs          keep the services' logs (kept anyway when the run fails)
  --no-write           do not write bench/results/<date>.json
  --env KEY=VALUE      extra environment for every service (repeatable), for experiments such as
                       --env OTEL_SDK_DISABLED=true or --env LOG_LEVEL=warn; recorded in the results
  --node-arg <service>=<flag>  an extra node flag for one service, or all (repeatable), e.g.
                       --node-arg gateway=--heap-prof or --node-arg all=--max-semi-space-size=8
  --heap-snapshot <service>  write a heap snapshot of that service after the last scenario, before
                       anything is stopped (what it retains under load), into bench/results/

  gw-abusive-key: ${GOOD_KEYS} keys each send ${GOOD_RATE} recommends/s (inside their limit), unloaded, then beside one
  abusive key in a closed loop on --connections connections; reports the good keys' p99 both ways and
  the abusive key's 429s. It runs the gateway's default per-key limits; every other scenario runs
  with them raised out of reach (they drive one key as hard as they can, to measure capacity).
`;

const ALL = [
  "bare-http",
  "bare-express",
  "gw-domains",
  "gw-contract",
  "gw-recommend",
  "gw-recommend-1",
  "gw-recommend-300",
  "gw-route-300",
  "gw-execute",
  "gw-execute-1",
  "gw-execute-ranked",
  "gw-execute-ranked-1",
  "vendor-chat",
  "vendor-chat-1",
  "portkey-chat",
  "portkey-chat-1",
  "gw-chat",
  "gw-chat-1",
  "grpc-catalog",
  "soak",
  "gw-abusive-key",
];

function options() {
  const { values } = parseArgs({
    options: {
      duration: { type: "string" },
      connections: { type: "string" },
      warmup: { type: "string" },
      only: { type: "string" },
      quick: { type: "boolean", default: false },
      soak: { type: "boolean", default: false },
      "no-hops": { type: "boolean", default: false },
      "hops-duration": { type: "string" },
      "soak-duration": { type: "string" },
      profile: { type: "boolean", default: false },
      "profile-service": { type: "string" },
      compare: { type: "string" },
      "no-build": { type: "boolean", default: false },
      "keep-logs": { type: "boolean", default: false },
      "no-write": { type: "boolean", default: false },
      env: { type: "string", multiple: true },
      "node-arg": { type: "string", multiple: true },
      "heap-snapshot": { type: "string" },
      catalog: { type: "string" },
      help: { type: "boolean", short: "h", default: false },
    },
    strict: true,
  });
  if (values.help) {
    console.log(HELP);
    process.exit(0);
  }
  const env = process.env;
  const num = (name, raw, fallback, min, max) => {
    if (raw === undefined || raw === "") return fallback;
    const n = Number(String(raw).replace(/s$/, ""));
    if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} must be a number from ${min} to ${max}, got "${raw}"`);
    return n;
  };
  const quick = values.quick;
  let only = (values.only ?? env.BENCH_ONLY)
    ?.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  for (const id of only ?? []) if (!ALL.includes(id)) throw new Error(`unknown scenario "${id}"; known: ${ALL.join(", ")}`);
  const profileService = values["profile-service"] ?? (values.profile ? "gateway" : undefined);
  const PROFILABLE = ["gateway", "catalog", "router", "ledger", "executor", "sandbox"];
  if (profileService && !PROFILABLE.includes(profileService)) throw new Error(`--profile-service must be one of ${PROFILABLE.join(", ")}`);
  if (!only && profileService) only = [profileService === "router" ? "gw-recommend" : "gw-domains"];
  const selected = only ?? ALL.filter((id) => (id !== "soak" || values.soak) && id !== "gw-abusive-key");
  const serviceEnv = {};
  for (const pair of values.env ?? []) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/s.exec(pair);
    if (!m) throw new Error(`--env must look like KEY=VALUE, got "${pair}"`);
    serviceEnv[m[1]] = m[2];
  }
  const nodeArgs = {};
  for (const pair of values["node-arg"] ?? []) {
    const m = /^([a-z]+)=(--\S+)$/.exec(pair);
    if (!m || !(m[1] === "all" || PROFILABLE.includes(m[1])))
      throw new Error(`--node-arg must look like <service>=--flag (all, ${PROFILABLE.join(", ")}), got "${pair}"`);
    for (const service of m[1] === "all" ? PROFILABLE : [m[1]]) (nodeArgs[service] ??= []).push(m[2]);
  }
  const heapSnapshot = values["heap-snapshot"];
  if (heapSnapshot && !PROFILABLE.includes(heapSnapshot)) throw new Error(`--heap-snapshot must be one of ${PROFILABLE.join(", ")}`);
  return {
    catalogTimes: values.catalog === undefined ? undefined : num("catalog", values.catalog, 100, 1, 1000),
    serviceEnv,
    // The experiment's flags, and what each service starts with: its manifest's flags, then those.
    nodeArgs,
    serviceNodeArgs: productionNodeArgs(nodeArgs),
    heapSnapshot,
    durationS: num("duration", values.duration ?? env.BENCH_DURATION, quick ? 3 : 10, 1, 3600),
    warmupS: num("warmup", values.warmup, quick ? 1 : 2, 0, 600),
    connections: num("connections", values.connections ?? env.BENCH_CONNECTIONS, 32, 1, 4096),
    executeConnections: 16,
    soakDurationS: num("soak-duration", values["soak-duration"], 60, 5, 3600),
    hops: !values["no-hops"],
    hopsDurationS: num("hops-duration", values["hops-duration"], quick ? 2 : 5, 1, 600),
    selected,
    quick,
    profile: profileService,
    compare: values.compare,
    build: !values["no-build"],
    keepLogs: values["keep-logs"],
    write: !values["no-write"],
  };
}

// ---- lifecycle: whatever happens, stop what was started ---------------------------------------

let interrupted = false;
let stopping;
const inFlight = new Set();
const exitCleanups = [];

function stopEverything() {
  stopping ??= stopAllManaged();
  return stopping;
}

function installSignalHandlers() {
  const onSignal = (signal) => {
    if (interrupted) {
      // Second Ctrl-C: no more waiting.
      killAllManagedSync();
      process.exit(130);
    }
    interrupted = true;
    console.error(`\n${signal}: stopping everything the bench started...`);
    for (const instance of inFlight) instance.stop?.();
    void stopEverything().finally(() => process.exit(130));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  process.on("SIGHUP", onSignal);
  process.on("exit", () => {
    killAllManagedSync();
    for (const fn of exitCleanups) fn();
  });
}

// ---- helpers -----------------------------------------------------------------------------------

function build() {
  console.log("building (npx turbo run build)...");
  const r = spawnSync("npx", ["turbo", "run", "build", "--output-logs=errors-only"], {
    cwd: ROOT,
    stdio: ["ignore", "inherit", "inherit"],
    timeout: 600_000,
  });
  if (r.status === 0) return "ok";
  console.log(`warning: the build failed (${r.error?.message ?? `exit ${r.status}`}); benchmarking whatever is built`);
  return "failed: some dist/ may be stale (see the build output)";
}

async function request(url, init = {}) {
  const res = await fetch(url, { ...init, signal: AbortSignal.timeout(10_000) });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, ok: res.ok, body, text: () => body.toString("utf8") };
}

/** API keys for gw-abusive-key (the ledger registers them from AGENTIC_API_KEYS); the first stays the dev key of dev-user. */
function benchKeys() {
  const key = () =>
    `aak_${randomBytes(32)
      .toString("base64url")
      .replace(/[^A-Za-z0-9]/g, "")
      .slice(0, 40)}`;
  const dev = key();
  const good = Array.from({ length: GOOD_KEYS }, key);
  const abusive = key();
  const env = [`${dev}:dev-user`, ...good.map((k, i) => `${k}:bench-good-${i + 1}`), `${abusive}:bench-abusive`].join(",");
  return { good, abusive, env };
}

/** The execute every scenario sends: email.send pinned to one provider of the sandbox, no fallback. */
const EXECUTE_BODY = JSON.stringify({ to: "ada@example.com", subject: "bench", text: "bench", provider: "resend", allowFallback: false });

/** The same execute with no provider named: the routes are ranked (as recommend ranks them) before one runs. */
const RANKED_EXECUTE_BODY = JSON.stringify({ to: "ada@example.com", subject: "bench", text: "bench" });

/** The key the sandbox's OpenAI stand-in accepts (the executor is given the same). */
const SANDBOX_OPENAI_KEY = rootRequire("@agentic/sandbox").SANDBOX_API_KEYS.openai;

/** The monotonic clock in µs (the clock of V8 CPU profiles on Linux). */
const monoUs = () => Number(process.hrtime.bigint() / 1000n);

const brief = (text, n = 200) => (text.length > n ? `${text.slice(0, n)}...` : text);

// ---- main --------------------------------------------------------------------------------------

async function main() {
  const opts = options();
  installSignalHandlers();
  const machine = describeMachine();
  const log = (line) => console.log(line);

  log(`Agentic API bench - ${machine.date}`);
  log(
    `machine: ${machine.cores} cores, ${machine.cpuModel}, ${machine.memoryGb} GB, load ${machine.loadAvg1m} (1 min); Node ${machine.node}; ${machine.platform}; commit ${machine.commit ?? "?"}${machine.treeDirty ? " (+ uncommitted changes)" : ""}`,
  );
  log(
    `load: ${opts.durationS} s per scenario after ${opts.warmupS} s warm-up, ${opts.connections} connections (execute ${opts.executeConnections}), closed loop, loopback only`,
  );
  log("note: the load generator (this process) runs on the same cores as the servers and competes with them for CPU;");
  log("      read the numbers as relative to the bare servers measured in the same run, not as absolute capacity.");
  const envNote = Object.entries(opts.serviceEnv)
    .map(([k, v]) => `${k}=${v}`)
    .join(" ");
  if (envNote) log(`experiment: every service runs with ${envNote} (not the embedded default)`);
  log(
    `heap: each service with its manifest's node flags (${Object.entries(productionNodeArgs())
      .map(([service, args]) => `${service} ${args.join(" ") || "none"}`)
      .join("; ")})`,
  );
  for (const [service, args] of Object.entries(opts.nodeArgs))
    log(`experiment: the ${service} runs with node ${args.join(" ")}, after those`);
  log(
    `tracing: head sampling as in production (${Object.entries(PRODUCTION_SAMPLING)
      .map(([k, v]) => `${k}=${v}`)
      .join(" ")}), no exporter`,
  );

  const buildStatus = opts.build ? build() : "skipped (--no-build)";
  if (opts.catalogTimes !== undefined) {
    const machineNote = `${machine.date.slice(0, 10)}, ${machine.cores} cores, ${machine.cpuModel}, Node ${machine.node}, load ${machine.loadAvg1m}`;
    await runCatalogScale(opts.catalogTimes, { ...opts, machine: machineNote }, log);
    await stopEverything();
    return;
  }
  const logDir = mkdtempSync(join(tmpdir(), "agentic-bench-"));
  const stamp = machine.date.replace(/[:.]/g, "-");
  let keepLogs = opts.keepLogs;
  exitCleanups.push(() => {
    if (!keepLogs || readdirSync(logDir).length === 0) rmSync(logDir, { recursive: true, force: true });
  });
  let profileFile;
  const nodeArgs = structuredClone(opts.serviceNodeArgs);
  if (opts.profile) {
    mkdirSync(RESULTS_DIR, { recursive: true });
    const name = `${stamp}-${opts.profile}.cpuprofile`;
    profileFile = join(RESULTS_DIR, name);
    (nodeArgs[opts.profile] ??= []).push("--cpu-prof", "--cpu-prof-dir", RESULTS_DIR, "--cpu-prof-name", name);
  }
  if (opts.heapSnapshot) {
    mkdirSync(RESULTS_DIR, { recursive: true });
    (nodeArgs[opts.heapSnapshot] ??= []).push("--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${RESULTS_DIR}`);
  }

  let heapSnapshotFile;
  let hops;
  const sampler = new ProcSampler(500);
  const results = [];
  let soak;
  let system;
  let failed = false;
  try {
    log(`starting the system (logs in ${logDir})...`);
    // A fresh ledger database per run, removed at exit: runs never accumulate wallets or usage.
    const ledgerDir = mkdtempSync(join(tmpdir(), "agentic-bench-ledger-"));
    exitCleanups.push(() => rmSync(ledgerDir, { recursive: true, force: true }));
    // Per-key limits: gw-abusive-key shows the gateway's defaults at work; the other scenarios drive
    // one key as hard as they can to measure capacity, so they run with the limits out of reach.
    const abuse = opts.selected.includes("gw-abusive-key") ? benchKeys() : undefined;
    const limitsEnv = abuse ? { AGENTIC_API_KEYS: abuse.env } : LIMITS_OUT_OF_REACH;
    if (abuse && opts.selected.some((id) => ["gw-recommend", "gw-execute"].includes(id))) {
      log("note: gw-abusive-key runs the default per-key limits, so gw-recommend and gw-execute (one key) are rate limited in this run");
    }
    system = await startSystem({
      logDir,
      nodeArgs,
      serviceEnv: { ...limitsEnv, ...PRODUCTION_SAMPLING, ...opts.serviceEnv },
      ledgerSqlitePath: join(ledgerDir, "ledger.sqlite"),
    });
    if (system.natsStoreDir) exitCleanups.push(() => rmSync(system.natsStoreDir, { recursive: true, force: true }));
    log(
      `system up: ${system.started.join(", ")}${system.missing.length ? `; not built: ${system.missing.join(", ")}` : ""}; ${system.baseUrl}`,
    );
    for (const p of system.processes) sampler.track(p.name, p.pid);
    sampler.track("loadgen", process.pid);
    sampler.start();

    const base = system.baseUrl;
    const domains = await request(`${base}/domains`);
    if (!domains.ok) throw new Error(`GET ${base}/domains answered ${domains.status}: ${brief(domains.text())}`);
    const bodyFile = join(logDir, "domains.json");
    writeFileSync(bodyFile, domains.body);
    const path = new URL(`${base}/domains`).pathname;

    const bare = {};
    for (const kind of ["http", "express"]) {
      if (!opts.selected.includes(`bare-${kind}`)) continue;
      bare[kind] = await startBareServer(kind, { bodyFile, path, logFile: join(logDir, `bare-${kind}.log`) });
      sampler.track(`bare-${kind}`, bare[kind].pid);
      const check = await request(bare[kind].url);
      if (!check.body.equals(domains.body)) throw new Error(`bare ${kind} does not serve the gateway's bytes`);
    }
    // Portkey's gateway in front of the sandbox's OpenAI-compatible endpoint, for the chat scenarios.
    const vendorChatBase = system.started.includes("sandbox") ? `http://127.0.0.1:${system.ports.sandbox.port}/openai/v1` : undefined;
    let portkey;
    let portkeySkip;
    if (opts.selected.some((id) => id.startsWith("portkey-"))) {
      if (!vendorChatBase) portkeySkip = "sandbox not running";
      else {
        try {
          portkey = await startPortkey({ logFile: join(logDir, "portkey.log"), log });
          sampler.track("portkey", portkey.pid);
        } catch (err) {
          portkeySkip = `Portkey's gateway could not be started: ${brief(String(err.message))}`;
          log(`note: ${portkeySkip}`);
        }
      }
    }
    log(
      `GET /domains: ${domains.body.length} bytes, served identically by ${["gateway", ...Object.keys(bare).map((k) => `bare ${k}`)].join(", ")}`,
    );

    const auth = { authorization: `Bearer ${system.devKey}`, "content-type": "application/json" };
    const running = (name) => system.started.includes(name);
    const capability = emailSendUrl(base);

    const recommend = {
      involved: ["gateway", "router", "ledger", "catalog"],
      skip: () => (!running("router") ? "router not running" : !running("ledger") ? "ledger not running (no API keys)" : undefined),
      http: () => recommendRequest(base, system.devKey),
    };
    // Intent routing: keyless, in the router's memory (no ledger call).
    const route = {
      involved: ["gateway", "router", "catalog"],
      skip: () => (!running("router") ? "router not running" : undefined),
      http: () => ({
        url: `${base}/route`,
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ task: "tell ana@example.com the invoice is attached, cheapest, under 20 credits" }),
      }),
    };
    const execute = {
      involved: ["gateway", "executor", "ledger", "router", "catalog", "sandbox", "nats"],
      skip: () =>
        !running("executor")
          ? "executor not running"
          : !running("ledger")
            ? "ledger not running"
            : !running("sandbox")
              ? "sandbox not running"
              : undefined,
      prepare: () => fundDevWallet(base),
      http: () => ({
        url: `${capability}/execute`,
        method: "POST",
        headers: auth,
        body: EXECUTE_BODY,
        freshHeaders: idempotencyKey,
      }),
      probeSkip: (probe) =>
        probe.status === 404 && probe.text().includes("no route for") ? "the gateway has no execute route yet (404)" : undefined,
    };

    const rankedExecute = {
      ...execute,
      http: () => ({ ...execute.http(), body: RANKED_EXECUTE_BODY }),
    };

    // The same chat completion three ways: to the vendor (the sandbox) directly, through Portkey's
    // gateway, and as our execute (key check, credits held and captured, usage recorded).
    const vendorChat = {
      involved: ["sandbox"],
      skip: () => (!vendorChatBase ? "sandbox not running" : undefined),
      http: () => ({
        url: `${vendorChatBase}/chat/completions`,
        method: "POST",
        headers: { "content-type": "application/json", authorization: `Bearer ${SANDBOX_OPENAI_KEY}` },
        body: JSON.stringify(CHAT),
      }),
    };
    const portkeyChat = {
      involved: ["portkey", "sandbox"],
      skip: () => portkeySkip,
      http: () => ({
        url: `${portkey.url}/v1/chat/completions`,
        method: "POST",
        headers: portkeyHeaders(vendorChatBase, SANDBOX_OPENAI_KEY),
        body: JSON.stringify(CHAT),
      }),
    };
    const gwChat = {
      ...execute,
      http: () => chatExecuteRequest(base, system.devKey),
    };

    const scenarios = [
      { id: "bare-http", label: "1 bare node:http (same bytes)", involved: ["bare-http"], http: () => ({ url: bare.http.url }) },
      { id: "bare-express", label: "2 bare express 5 (same bytes)", involved: ["bare-express"], http: () => ({ url: bare.express.url }) },
      { id: "gw-domains", label: "3 gateway GET /domains", involved: ["gateway", "catalog"], http: () => ({ url: `${base}/domains` }) },
      {
        id: "gw-contract",
        label: "4 gateway GET email.send contract",
        involved: ["gateway", "catalog"],
        http: () => ({ url: `${capability}/contract` }),
      },
      { id: "gw-recommend", label: "5 gateway POST recommend", ...recommend },
      { id: "gw-recommend-1", label: "5u gateway POST recommend, 1 conn", conns: 1, ...recommend },
      { id: "gw-recommend-300", label: "5f gateway POST recommend at 300 req/s", rate: 300, ...recommend },
      { id: "gw-route-300", label: "5r gateway POST /route at 300 req/s", rate: 300, ...route },
      { id: "gw-execute", label: "6 gateway POST execute (sandbox)", conns: opts.executeConnections, ...execute },
      { id: "gw-execute-1", label: "6u gateway POST execute, 1 conn", conns: 1, ...execute },
      { id: "gw-execute-ranked", label: "6r gateway POST execute, ranked", conns: opts.executeConnections, ...rankedExecute },
      { id: "gw-execute-ranked-1", label: "6ru gateway POST execute, ranked, 1 conn", conns: 1, ...rankedExecute },
      { id: "vendor-chat", label: "8 vendor chat directly (sandbox)", conns: opts.executeConnections, ...vendorChat },
      { id: "vendor-chat-1", label: "8u vendor chat directly, 1 conn", conns: 1, ...vendorChat },
      { id: "portkey-chat", label: "9 Portkey gateway -> vendor chat", conns: opts.executeConnections, ...portkeyChat },
      { id: "portkey-chat-1", label: "9u Portkey gateway, 1 conn", conns: 1, ...portkeyChat },
      { id: "gw-chat", label: "10 execute models.chat.complete", conns: opts.executeConnections, ...gwChat },
      { id: "gw-chat-1", label: "10u execute chat, 1 conn", conns: 1, ...gwChat },
      { id: "grpc-catalog", label: "7 gRPC catalog ListDomains (direct)", involved: ["catalog"], grpc: true },
      {
        id: "gw-abusive-key",
        label: `A recommend ${GOOD_KEYS} keys+1 abusive`,
        involved: ["gateway", "router", "ledger", "catalog"],
        skip: () => (!running("router") ? "router not running" : !running("ledger") ? "ledger not running (no API keys)" : undefined),
        http: () => recommendRequest(base, abuse.good[0]),
        abuse: true,
      },
      // Executes touch every service (and the ledger's database), so the soak shows growth in any of them.
      {
        id: "soak",
        label: `S soak POST execute (${opts.soakDurationS} s)`,
        conns: opts.executeConnections,
        ...execute,
        soak: true,
      },
    ].filter((s) => opts.selected.includes(s.id));

    for (const s of scenarios) {
      if (interrupted) break;
      const conns = s.conns ?? opts.connections;
      const durationS = s.soak ? opts.soakDurationS : opts.durationS;
      const entry = { id: s.id, label: s.label, conns, involved: s.involved.filter((p) => sampler.procs.has(p)) };
      const skip = s.skip?.() ?? (await s.prepare?.());
      if (skip) {
        results.push({ ...entry, status: "skipped", skipReason: skip });
        log(`  ${s.label}: skipped: ${skip}`);
        continue;
      }
      let probe;
      if (s.http) {
        const h = s.http();
        try {
          probe = await request(h.url, { method: h.method ?? "GET", headers: { ...h.headers, ...h.freshHeaders?.() }, body: h.body });
        } catch (err) {
          results.push({ ...entry, status: "skipped", skipReason: `one request failed: ${err.message}` });
          log(`  ${s.label}: skipped: one request failed: ${err.message}`);
          continue;
        }
        const probeSkip = s.probeSkip?.(probe);
        if (probeSkip) {
          results.push({ ...entry, status: "skipped", skipReason: probeSkip });
          log(`  ${s.label}: skipped: ${probeSkip}`);
          continue;
        }
      }
      log(`  ${s.label}: ${opts.warmupS} s warm-up + ${durationS} s at ${conns} conns...`);
      const startMark = sampler.sample();
      let measureMark = startMark;
      let measureFromUs = monoUs();
      const onMeasureStart = () => {
        measureMark = sampler.sample();
        measureFromUs = monoUs();
      };
      let run;
      if (s.abuse) {
        const h = s.http();
        const r = await runAbusiveKey({
          url: h.url,
          body: h.body,
          goodKeys: abuse.good,
          abusiveKey: abuse.abusive,
          goodRate: GOOD_RATE,
          abusiveConns: conns,
          durationS,
          warmupS: opts.warmupS,
          onMeasureStart,
          track: (instance) => {
            inFlight.add(instance);
            instance.once("done", () => inFlight.delete(instance));
          },
        });
        // The row shows the good keys beside the abusive one; the rest is printed after the table.
        run = { ...r.loaded, abuse: r };
      } else if (s.grpc) {
        const { createCatalogClient } = rootRequire("@agentic/clients");
        const client = createCatalogClient(`127.0.0.1:${system.ports.catalog.port}`);
        try {
          run = await runGrpcLoad({
            call: () => client.listDomains({}),
            concurrency: conns,
            durationS,
            warmupS: opts.warmupS,
            isStopped: () => interrupted,
            onMeasureStart,
          });
        } finally {
          client.close();
        }
      } else {
        const h = s.http();
        run = await runHttpLoad({
          ...h,
          ...(s.rate ? { overallRate: s.rate } : {}),
          connections: conns,
          durationS,
          warmupS: opts.warmupS,
          onMeasureStart,
          track: (instance) => {
            inFlight.add(instance);
            instance.once("done", () => inFlight.delete(instance));
          },
        });
      }
      const endMark = sampler.sample();
      const measuredMonoUs = { fromUs: measureFromUs, toUs: monoUs() };
      // RSS over the whole scenario (warm-up included, so growth is visible); CPU over the measured part.
      const whole = sampler.window(startMark, endMark);
      const measured = sampler.window(measureMark, endMark);
      const processes = Object.fromEntries(
        Object.entries(whole).map(([name, w]) => [name, { ...w, cpuPct: measured[name]?.cpuPct ?? null }]),
      );
      const machineCpu = sampler.machineWindow(measureMark, endMark);
      if (machineCpu) {
        // Everything the machine did that none of our processes did: other users' builds, tests...
        const ours = Object.values(measured).reduce((sum, w) => sum + (w.cpuPct ?? 0), 0);
        machineCpu.othersPct = Math.max(0, Math.round((machineCpu.busyPct - ours) * 10) / 10);
      }
      const result = { ...entry, status: "ok", durationS: run.durationS, ...run, processes, machineCpu, measuredMonoUs };
      result.cpuPerRequestUs = cpuPerRequestUs(result);
      if (probe && !probe.ok) result.probe = { status: probe.status, body: brief(probe.text(), 300) };
      results.push(result);
      if (s.soak) soak = soakSummary(result, measured);
    }
    if (opts.heapSnapshot && !interrupted) heapSnapshotFile = await takeHeapSnapshot(system, opts.heapSnapshot, log);
    if (opts.hops && !interrupted) {
      // The load figures end here; the traced pass runs alone on the machine.
      sampler.stop();
      await stopAllManaged();
      hops = await runHopsPass({ opts, logDir, serviceEnv: { ...limitsEnv, ...opts.serviceEnv }, inFlight, exitCleanups, log });
    }
  } catch (err) {
    keepLogs = true;
    failed = true;
    throw err;
  } finally {
    sampler.stop();
    const whole = sampler.samples.length ? sampler.window(0, sampler.samples.length - 1) : {};
    if (!interrupted) log("stopping everything the bench started...");
    await stopEverything();
    if (!interrupted && !failed)
      finish({ opts, machine, buildStatus, system, results, soak, whole, stamp, profileFile, heapSnapshotFile, hops, log });
    if (keepLogs && readdirSync(logDir).length) log(`logs kept in ${logDir}`);
  }
}

/** Signals `service` (started with --heapsnapshot-signal) to write a heap snapshot; resolves its path once written. */
async function takeHeapSnapshot(system, service, log) {
  const proc = system.processes.find((p) => p.name === service);
  if (!proc) return undefined;
  const before = new Set(readdirSync(RESULTS_DIR));
  process.kill(proc.pid, "SIGUSR2");
  log(`  heap snapshot of the ${service} (pid ${proc.pid})...`);
  const until = Date.now() + 120_000;
  let lastSize = -1;
  while (Date.now() < until) {
    await new Promise((r) => setTimeout(r, 1_000));
    const file = readdirSync(RESULTS_DIR).find((f) => f.endsWith(".heapsnapshot") && !before.has(f));
    if (!file) continue;
    // Written in one go by the process; done when its size stops changing.
    const size = statSync(join(RESULTS_DIR, file)).size;
    if (size > 0 && size === lastSize) return join(RESULTS_DIR, file);
    lastSize = size;
  }
  log(`warning: no heap snapshot of the ${service} appeared within 120 s`);
  return undefined;
}

/**
 * The traced pass: the system again, every service exporting its spans to a receiver here, one
 * connection of recommends and then one of executes; resolves each path's hop figures.
 */
async function runHopsPass({ opts, logDir, serviceEnv, inFlight, exitCleanups, log }) {
  const receiver = await startOtlpReceiver();
  const ledgerDir = mkdtempSync(join(tmpdir(), "agentic-bench-ledger-"));
  exitCleanups.push(() => rmSync(ledgerDir, { recursive: true, force: true }));
  const tracedLogs = join(logDir, "traced");
  mkdirSync(tracedLogs, { recursive: true });
  log(`traced pass: starting the system again, exporting every span to ${receiver.endpoint}...`);
  try {
    const traced = await startSystem({
      logDir: tracedLogs,
      nodeArgs: opts.serviceNodeArgs,
      serviceEnv: { ...serviceEnv, ...tracingEnv(receiver.endpoint) },
      ledgerSqlitePath: join(ledgerDir, "ledger.sqlite"),
    });
    if (traced.natsStoreDir) exitCleanups.push(() => rmSync(traced.natsStoreDir, { recursive: true, force: true }));
    const base = traced.baseUrl;
    const headers = { authorization: `Bearer ${traced.devKey}`, "content-type": "application/json" };
    const capability = emailSendUrl(base);
    const paths = {
      recommend: { url: `${capability}/recommend`, body: RECOMMEND_BODY },
      execute: { url: `${capability}/execute`, body: EXECUTE_BODY },
    };
    const unfunded = await fundDevWallet(base);
    if (unfunded) delete paths.execute;
    const windows = {};
    for (const [path, h] of Object.entries(paths)) {
      log(`  ${path}: 1 s warm-up + ${opts.hopsDurationS} s at 1 conn, traced...`);
      let fromUs = Date.now() * 1000;
      await runHttpLoad({
        url: h.url,
        method: "POST",
        headers,
        body: h.body,
        ...(path === "execute" ? { freshHeaders: idempotencyKey } : {}),
        connections: 1,
        durationS: opts.hopsDurationS,
        warmupS: 1,
        onMeasureStart: () => (fromUs = Date.now() * 1000),
        track: (instance) => {
          inFlight.add(instance);
          instance.once("done", () => inFlight.delete(instance));
        },
      });
      windows[path] = { fromUs, toUs: Date.now() * 1000 };
    }
    // The services export every 200 ms; give the last batches time to arrive.
    await new Promise((r) => setTimeout(r, 2_000));
    await stopAllManaged();
    const routeOf = (s) =>
      `${s.name} ${s.attributes["http.route"] ?? ""} ${s.attributes["http.target"] ?? ""} ${s.attributes["url.path"] ?? ""}`;
    const result = { spans: receiver.spans.length, paths: {} };
    for (const [path, w] of Object.entries(windows)) {
      const re = new RegExp(`/${path}\\b`);
      result.paths[path] = analyzeHops(receiver.spans, (s) => s.startUs >= w.fromUs && s.startUs <= w.toUs && re.test(routeOf(s)));
    }
    if (unfunded) result.note = `execute not traced: ${unfunded}`;
    return result;
  } finally {
    await receiver.close();
  }
}

/** RSS growth per process over the soak: median of the first 5 s vs median of the last 5 s. */
function soakSummary(result, measured) {
  const growth = {};
  for (const [name, w] of Object.entries(measured)) {
    const series = w.series;
    const lastT = series[series.length - 1]?.s ?? 0;
    const median = (xs) => {
      const s = [...xs].sort((a, b) => a - b);
      return s.length ? s[Math.floor(s.length / 2)] : 0;
    };
    const startMb = median(series.filter((p) => p.s <= 5).map((p) => p.mb));
    const endMb = median(series.filter((p) => p.s >= lastT - 5).map((p) => p.mb));
    const growthMb = Math.round((endMb - startMb) * 10) / 10;
    growth[name] = { startMb, endMb, peakMb: w.rssPeakMb, growthMb, growthPct: startMb ? Math.round((growthMb / startMb) * 1000) / 10 : 0 };
  }
  return { status: "ok", durationS: result.durationS, involved: result.involved, growth };
}

function finish({ opts, machine, buildStatus, system, results, soak, whole, stamp, profileFile, heapSnapshotFile, hops, log }) {
  const ratios = computeRatios(results);
  const targets = computeTargets(results, ratios, soak);
  log("");
  log(`RESULTS (latency in ms, measured per response with microsecond resolution; req/s = responses / measured seconds)`);
  log(formatTable(results));
  log(
    `CPU % is of one core over the measured part (${machine.cores} cores = ${machine.cores * 100}%); load = this process (autocannon or the gRPC driver); other = the rest of the machine.`,
  );
  log("Closed loop: mean latency ~ connections / req/s, so under saturation latency differences mostly mirror throughput.");
  log("");
  log("CPU per answered request, µs (robust to other load on the machine: compare changes by these)");
  log(formatCpuPerRequest(results));
  const disturbed = results.filter((r) => r.machineCpu?.othersPct > 15 || r.machineCpu?.stealPct > 10);
  if (disturbed.length) {
    log(
      `warning: other processes on this machine used CPU during ${disturbed.map((r) => `${r.id} (${Math.round(r.machineCpu.othersPct)}%` + (r.machineCpu.stealPct > 10 ? `, steal ${Math.round(r.machineCpu.stealPct)}%)` : ")")).join(", ")}: those figures are disturbed; rerun on a quiet machine.`,
    );
  }
  const genBound = results.filter((r) => r.processes?.loadgen?.cpuPct >= 85);
  if (genBound.length)
    log(
      `note: the load generator used most of a core during ${genBound.map((r) => r.id).join(", ")}: those rows are bounded by it, the server could do more.`,
    );
  for (const r of results.filter((r) => r.probe)) log(`note: ${r.id} probe answered ${r.probe.status}: ${r.probe.body}`);
  for (const r of results.filter((r) => r.abuse)) {
    const { unloaded, loaded, abusive, p99Ratio } = r.abuse;
    const ms = (x) => (x == null ? "-" : x.toFixed(2));
    log(`${r.id}: ${GOOD_KEYS} good keys at ${GOOD_RATE} req/s each; latency of every answer they got, ms:`);
    log(
      `  unloaded          p50 ${ms(unloaded.latency.p50)}  p99 ${ms(unloaded.latency.p99)}  ${Math.round(unloaded.rps)} req/s  statuses ${JSON.stringify(unloaded.statusCodes)}`,
    );
    log(
      `  + abusive key     p50 ${ms(loaded.latency.p50)}  p99 ${ms(loaded.latency.p99)}  ${Math.round(loaded.rps)} req/s  statuses ${JSON.stringify(loaded.statusCodes)}`,
    );
    log(
      `  good keys' p99 loaded / unloaded: ${p99Ratio == null ? "-" : `${p99Ratio.toFixed(2)}x`} (target <= 2x): ${p99Ratio != null && p99Ratio <= 2 ? "PASS" : "MISS"}`,
    );
    log(
      `  abusive key (${r.conns} conns, closed loop): ${Math.round(abusive.rps)} req/s, statuses ${JSON.stringify(abusive.statusCodes)}, p50 ${ms(abusive.latency.p50)} p99 ${ms(abusive.latency.p99)} ms`,
    );
  }
  for (const r of results.filter((r) => r.status === "ok" && r.errors + r.non2xx > 0))
    log(`note: ${r.id} status codes ${JSON.stringify(r.statusCodes)}`);
  log("");
  log("RATIOS");
  log(formatRatios(ratios));
  log("");
  log("RSS over the whole run, MB: start -> end (peak)");
  log(
    Object.entries(whole)
      .map(([name, w]) => `  ${name.padEnd(13)} ${w.rssStartMb} -> ${w.rssEndMb} (${w.rssPeakMb})`)
      .join("\n"),
  );
  if (soak) {
    log(`soak RSS (median of first 5 s -> last 5 s of ${Math.round(soak.durationS)} s):`);
    for (const [name, g] of Object.entries(soak.growth))
      log(
        `  ${name.padEnd(13)} ${g.startMb} -> ${g.endMb} MB (${g.growthMb >= 0 ? "+" : ""}${g.growthMb} MB, ${g.growthPct}%), peak ${g.peakMb}`,
      );
  }
  if (hops) {
    log("");
    log(
      `HOPS: where one request's time goes (traced pass, 1 connection, ${opts.hopsDurationS} s each; own time of each hop's spans, mean per request, and share of the gateway's SERVER span)`,
    );
    for (const [path, a] of Object.entries(hops.paths)) log(formatHops(`POST ${path}`, a));
    if (hops.note) log(`note: ${hops.note}`);
    log("(every span exported costs the services some CPU in this pass: read shares from it, and req/s and latency from the table)");
  }
  if (buildStatus !== "ok") log(`build: ${buildStatus}`);
  if (system?.missing.length) log(`not built, so not running: ${system.missing.join(", ")}`);
  log("");
  log("TARGETS (reported, never failing the run)");
  log(formatTargets(targets));

  let profile;
  if (profileFile) {
    log("");
    if (existsSync(profileFile)) {
      // Only the measured part of the first scenario that loads the profiled service: no start-up, no warm-up.
      const window = results.find((r) => r.status === "ok" && r.involved.includes(opts.profile))?.measuredMonoUs;
      profile = summarizeProfile(profileFile, 10, window);
      if (window) log(`profile window: the measured part of ${results.find((r) => r.measuredMonoUs === window).id}`);
      printProfile(profile, relative(ROOT, profileFile), log);
      log(`(the profiled ${opts.profile} is slower than an unprofiled one: use this run for the profile, not for figures)`);
    } else log(`warning: no CPU profile at ${profileFile} (did the ${opts.profile} exit cleanly?)`);
  }

  if (heapSnapshotFile)
    log(`heap snapshot of the ${opts.heapSnapshot}: ${relative(ROOT, heapSnapshotFile)} (open it in Chrome DevTools, Memory tab)`);

  const doc = {
    schema: 1,
    machine,
    options: {
      durationS: opts.durationS,
      warmupS: opts.warmupS,
      connections: opts.connections,
      executeConnections: opts.executeConnections,
      quick: opts.quick,
      selected: opts.selected,
      profile: opts.profile,
      serviceEnv: opts.serviceEnv,
      nodeArgs: opts.serviceNodeArgs,
    },
    system: { build: buildStatus, started: system?.started ?? [], notBuilt: system?.missing ?? [] },
    scenarios: results,
    ratios,
    targets,
    soak,
    rssWholeRun: Object.fromEntries(
      Object.entries(whole).map(([n, w]) => [n, { startMb: w.rssStartMb, endMb: w.rssEndMb, peakMb: w.rssPeakMb }]),
    ),
    profile: profile ? { file: relative(ROOT, profileFile), ...profile } : undefined,
    hops,
  };
  if (opts.write) {
    mkdirSync(RESULTS_DIR, { recursive: true });
    const file = join(RESULTS_DIR, `${stamp}.json`);
    writeFileSync(file, `${JSON.stringify(doc, null, 2)}\n`);
    log("");
    log(`wrote ${relative(ROOT, file)}`);
  }
  if (opts.compare) {
    log("");
    try {
      log(formatCompare(JSON.parse(readFileSync(opts.compare, "utf8")), doc));
    } catch (err) {
      log(`could not compare with ${opts.compare}: ${err.message}`);
    }
  }
}

main().then(
  () => process.exit(0),
  async (err) => {
    console.error(`bench failed: ${err?.message ?? err}`);
    await stopEverything();
    process.exit(1);
  },
);
