// `npm run bench -- --catalog <times>`: the catalog at scale against today's, measured in one run.
// For today's catalog and for one generated <times> the size (plus a capability with 200 routes,
// `wide.fanout-lookup`), it compiles it as the image's build does (time, peak RSS: once per catalog
// version), starts the catalog alone as its manifest runs it (start time, peak RSS), then the whole system
// on it (CATALOG_DIR), drives the catalog lists at their default page, one searched with `q` and the agent
// instructions (SKILL.md, llms.txt), a conditional GET answered 304, and recommend on the 200-route
// capability (?limit=5) beside a 5-route one, and reads every service's RSS after the load. It prints each target next to today's figure and writes
// bench/measured/catalog-x<times>.json (committed: the k8s tests check each service's memory limit
// against its measured peak).
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runHttpLoad } from "./http-load.mjs";
import { ROOT } from "./paths.mjs";
import { manifestCommand } from "./production-node-flags.mjs";
import { startSystem } from "./system.mjs";

const require = (await import("node:module")).createRequire(import.meta.url);
const { generateCatalog } = require("../../services/catalog/scripts/generate-catalog.js");

const SHIPPED = join(ROOT, "services/catalog/catalog");
/** The capability with many routes, and a shipped one with five (models.chat-complete). */
const WIDE_ROUTES = 200;
const MEASURED = ["gateway", "router", "executor", "catalog"];

/** Where the figures are kept for the k8s tests (scripts/k8s/measured-memory.test.mjs). */
export const catalogResultFile = (times) => join(ROOT, "bench/measured", `catalog-x${times}.json`);

const freePort = () =>
  new Promise((resolve, reject) => {
    const s = createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });

/** VmRSS and VmHWM (peak) of a process, in MB. */
function memoryOf(pid) {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? NaN);
  return { rssMB: kb("VmRSS") / 1024, peakMB: kb("VmHWM") / 1024 };
}

/**
 * Compiles the catalog in `dir` as the image's build does (services/catalog/scripts/compile-catalog.js,
 * into the folder the catalog reads at start): ms and peak RSS of compiling, which a start then skips.
 */
function compileCatalog(dir, compiledDir) {
  const started = performance.now();
  const script = join(ROOT, "services/catalog/scripts/compile-catalog.js");
  // Without the manifest's heap flags: the build compiles, not the pod.
  const run = spawnSync(process.execPath, [script, dir, "--out", compiledDir], { cwd: ROOT, encoding: "utf8" });
  if (run.status !== 0) throw new Error(`compiling the catalog in ${dir} failed:\n${run.stdout}${run.stderr}`);
  const peakMB = Number(/peak RSS (\d+) MB/.exec(run.stdout)?.[1]);
  return { ms: performance.now() - started, peakMB, said: run.stdout.trim() };
}

/** Starts the catalog alone on `dir`: ms until it serves, and its peak RSS then. Best of `runs`. */
async function catalogStart(dir, compiledDir, runs) {
  let best;
  for (let i = 0; i < runs; i++) {
    const env = {
      ...process.env,
      APP_ENV: "development",
      CATALOG_DIR: dir,
      CATALOG_COMPILED_DIR: compiledDir,
      PORT: String(await freePort()),
      METRICS_PORT: String(await freePort()),
    };
    const started = performance.now();
    const child = spawn(process.execPath, manifestCommand("catalog"), { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
    const figures = await new Promise((resolve, reject) => {
      let out = "";
      const onData = (chunk) => {
        out += chunk;
        if (out.includes('"catalog serving"')) resolve({ startMs: performance.now() - started, ...memoryOf(child.pid) });
      };
      child.stdout.on("data", onData);
      child.stderr.on("data", (c) => (out += c));
      child.once("exit", (code) => reject(new Error(`the catalog exited (${code}) before serving:\n${out.slice(-2000)}`)));
    });
    child.removeAllListeners("exit");
    child.kill("SIGTERM");
    await new Promise((r) => child.once("exit", r));
    if (!best || figures.startMs < best.startMs) best = { ...figures, peakMB: Math.max(figures.peakMB, best?.peakMB ?? 0) };
  }
  return best;
}

/** One catalog: the catalog alone, then the system on it under load. */
async function measureCatalog(label, dir, opts, log) {
  // A folder of its own: the compile measured is a first one, and the starts read what it wrote.
  const compiledDir = mkdtempSync(join(tmpdir(), "agentic-bench-compiled-"));
  const compiled = compileCatalog(dir, compiledDir);
  log(`${label}: ${compiled.said}; starting the catalog alone...`);
  const start = await catalogStart(dir, compiledDir, opts.quick ? 1 : 3);
  log(`${label}: catalog serves after ${Math.round(start.startMs)} ms, peak RSS ${start.peakMB.toFixed(0)} MB; starting the system...`);
  const logDir = mkdtempSync(join(tmpdir(), "agentic-bench-catalog-"));
  const system = await startSystem({
    logDir,
    // Every service runs with its manifest's node flags (their young generation sizes matter to their RSS).
    nodeArgs: opts.serviceNodeArgs,
    serviceEnv: {
      CATALOG_DIR: dir,
      CATALOG_COMPILED_DIR: compiledDir,
      RATE_LIMIT_RPS: "100000",
      RATE_LIMIT_BURST: "100000",
      RATE_LIMIT_MAX_IN_FLIGHT: "100000",
      ...opts.serviceEnv,
    },
    ledgerSqlitePath: join(logDir, "ledger.sqlite"),
  }).catch((err) => {
    throw new Error(`${err.message} (logs in ${logDir})`);
  });
  try {
    const base = system.baseUrl;
    const load = (url, extra = {}) =>
      runHttpLoad({ url, connections: opts.connections, durationS: opts.durationS, warmupS: opts.warmupS, ...extra });
    // The router builds the intent index of a new catalog version in the background when it sees it (at
    // 100x today's catalog, seconds of CPU): measured once it answers, so the lists are measured settled.
    const indexed = await untilAnswered(`${base}/capabilities?q=email&limit=3`);
    log(`${label}: the router's intent index answers ${(indexed / 1000).toFixed(1)} s after the system started`);
    const lists = {};
    // `q` is ranked by the router's intent index (built when the router sees the version). Three items: a page
    // of the same size at both scales (today's catalog has only a few capabilities about email). SKILL.md and
    // llms.txt, what agents read first, name the top capabilities of a large catalog, read from it once per version.
    for (const path of ["/capabilities", "/routes", "/domains?limit=50", "/capabilities?q=email&limit=3", "/SKILL.md", "/llms.txt"]) {
      const res = await fetch(base + path);
      const bytes = (await res.arrayBuffer()).byteLength;
      const run = await load(base + path);
      lists[path] = { bytes, rps: run.rps, p99: run.latency.p99, non2xx: run.non2xx };
      log(`${label}: GET ${path}: ${(bytes / 1024).toFixed(1)} KB, ${run.rps.toFixed(0)} req/s, p99 ${run.latency.p99.toFixed(1)} ms`);
    }
    const etag = (await fetch(`${base}/capabilities`)).headers.get("etag");
    // A 304's latency unloaded (one connection): what a client revalidating its copy waits.
    const notModified = await load(`${base}/capabilities`, {
      headers: { "if-none-match": etag },
      measures: (status) => status === 304,
      connections: 1,
    });
    if (notModified.statusCodes["304"] === undefined)
      throw new Error(`GET /capabilities with its ETag answered ${JSON.stringify(notModified.statusCodes)}, not 304`);
    log(`${label}: 304: p99 ${notModified.latency.p99.toFixed(2)} ms (${notModified.rps.toFixed(0)} req/s)`);
    const recommend = {};
    const targets = [["five", "/domains/models/capabilities/chat-complete/recommend?limit=5"]];
    if (opts.wide) targets.push(["wide", "/domains/wide/capabilities/fanout-lookup/recommend?limit=5"]);
    for (const [name, path] of targets) {
      const headers = { authorization: `Bearer ${system.devKey}`, "content-type": "application/json" };
      const body = JSON.stringify({ agentName: "bench_agent" });
      const answer = await fetch(base + path, { method: "POST", headers, body });
      const bytes = (await answer.arrayBuffer()).byteLength;
      if (answer.status !== 200) throw new Error(`POST ${path} answered ${answer.status}`);
      const run = await load(base + path, { method: "POST", headers, body, connections: Math.min(opts.connections, 8) });
      recommend[name] = { bytes, rps: run.rps, p50: run.latency.p50, p99: run.latency.p99 };
      log(`${label}: recommend ${name}: ${(bytes / 1024).toFixed(1)} KB, p50 ${run.latency.p50.toFixed(1)} ms`);
    }
    const memory = {};
    for (const p of system.processes) if (MEASURED.includes(p.name)) memory[p.name] = memoryOf(p.pid);
    return {
      compiled: { ms: compiled.ms, peakMB: compiled.peakMB },
      start,
      lists,
      notModified: { p99: notModified.latency.p99, rps: notModified.rps },
      recommend,
      memory,
    };
  } finally {
    await system.stop();
    rmSync(logDir, { recursive: true, force: true });
    rmSync(compiledDir, { recursive: true, force: true });
  }
}

/** Milliseconds until `url` answers 200 (asked again every 100 ms while it answers 503, for at most two minutes). */
async function untilAnswered(url) {
  const started = performance.now();
  for (;;) {
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status === 200) return performance.now() - started;
    if (res.status !== 503 || performance.now() - started > 120_000) throw new Error(`GET ${url} answered ${res.status}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const fmt = (n, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "-");

/** The targets of the issue, each with today's figure, the scaled one and whether it is met. */
function targetsOf(today, scaled) {
  const rows = [
    // Once per catalog version, at build (as the image's build does): what a start no longer does.
    ["catalog compile, at build (ms)", today.compiled.ms, scaled.compiled.ms, "-", undefined],
    ["catalog compile peak RSS (MB)", today.compiled.peakMB, scaled.compiled.peakMB, "-", undefined],
    ["catalog start (ms)", today.start.startMs, scaled.start.startMs, "<= 3000", scaled.start.startMs <= 3000],
    [
      "catalog peak RSS (MB)",
      today.start.peakMB,
      Math.max(scaled.start.peakMB, scaled.memory.catalog?.peakMB ?? 0),
      "<= 200",
      Math.max(scaled.start.peakMB, scaled.memory.catalog?.peakMB ?? 0) <= 200,
    ],
  ];
  for (const path of Object.keys(today.lists)) {
    const t = today.lists[path];
    const s = scaled.lists[path];
    rows.push([`GET ${path} page (KB)`, t.bytes / 1024, s.bytes / 1024, "<= 64", s.bytes <= 64 * 1024]);
    rows.push([`GET ${path} req/s`, t.rps, s.rps, ">= today / 1.2", s.rps >= t.rps / 1.2]);
    rows.push([`GET ${path} p99 (ms)`, t.p99, s.p99, "<= today x 1.2", s.p99 <= t.p99 * 1.2]);
  }
  rows.push(["304 p99 (ms)", today.notModified.p99, scaled.notModified.p99, "<= 5", scaled.notModified.p99 <= 5]);
  const five = scaled.recommend.five?.p50;
  const wide = scaled.recommend.wide?.p50;
  rows.push([`recommend p50 (ms): 5 routes | ${WIDE_ROUTES} routes ?limit=5`, five, wide, "<= 5 routes x 1.5", wide <= five * 1.5]);
  for (const name of ["gateway", "router", "executor"]) {
    const t = today.memory[name]?.rssMB;
    const s = scaled.memory[name]?.rssMB;
    rows.push([`${name} RSS (MB)`, t, s, "<= today x 1.2", s <= t * 1.2]);
  }
  return rows;
}

export async function runCatalogScale(times, opts, log) {
  const dir = mkdtempSync(join(tmpdir(), `agentic-catalog-x${times}-`));
  try {
    log(`generating a catalog ${times}x today's (+ a capability with ${WIDE_ROUTES} routes) in ${dir}...`);
    // Today's domains plus times - 1 copies of them: times x today's size, with email.send where the start-up expects it.
    generateCatalog(times - 1, dir, { wide: WIDE_ROUTES, withShipped: true });
    const today = await measureCatalog("today", SHIPPED, { ...opts, wide: false }, log);
    const scaled = await measureCatalog(`${times}x`, dir, { ...opts, wide: true }, log);
    // The 200-route capability is only in the generated catalog: both recommend figures come from its run.
    const rows = targetsOf(today, scaled);
    console.log(`\ncatalog at ${times}x (${opts.machine})\n`);
    console.log(`| target | today | ${times}x | wanted | met |`);
    console.log("|---|---|---|---|---|");
    for (const [name, t, s, wanted, met] of rows)
      console.log(
        `| ${name} | ${fmt(t, t < 10 ? 2 : 0)} | ${fmt(s, s < 10 ? 2 : 0)} | ${wanted} | ${met === undefined ? "-" : met ? "yes" : "NO"} |`,
      );
    const result = {
      times,
      machine: opts.machine,
      today,
      scaled,
      targets: rows.map(([name, t, s, wanted, met]) => ({ name, today: t, scaled: s, wanted, met })),
    };
    if (opts.write) {
      mkdirSync(join(ROOT, "bench/measured"), { recursive: true });
      writeFileSync(catalogResultFile(times), `${JSON.stringify(result, null, 2)}\n`);
      log(`wrote ${catalogResultFile(times)}`);
    }
    return result;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
