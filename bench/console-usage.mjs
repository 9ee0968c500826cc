#!/usr/bin/env node
// `npm run bench:console`: the console's Activity and export at scale. Fills a fresh ledger with
// ROWS usage items of one user (charges over the last 30 days, written straight into the SQLite file
// before the ledger starts: this measures reads, so the rows need no journal behind them), starts the
// whole system on it, then measures through the gateway:
//   - GET /usage?limit=50 (the Activity view's first page), SAMPLES times: server time, as the gateway
//     measures each request from its arrival to its last byte (its access log, ACCESS_LOG=all), and
//     the time the client saw;
//   - walking every page as the Activity view does (limit 50, the cursor of each page): pages, rows,
//     every charge seen exactly once, total and per-page time;
//   - GET /overview and GET /usage/summary (the Overview's one request, and its 30 days summed): latency;
//   - GET /usage/export (CSV of every row), streamed: time, bytes, rows, and the RSS of the gateway and
//     of the ledger sampled every 50 ms during it (flat memory: the peak stays near the start however
//     large the file).
// Figures, with the machine (cores, CPU, Node, load), are printed and written to bench/results/console-<date>.json.
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { describeMachine } from "./lib/machine.mjs";
import { RESULTS_DIR, ROOT } from "./lib/paths.mjs";
import { killAllManagedSync, stopAllManaged } from "./lib/processes.mjs";
import { startSystem } from "./lib/system.mjs";

const ROWS = Number(process.env.BENCH_USAGE_ROWS ?? 100_000);
const SAMPLES = 50;
/** The Activity view's page size. */
const PAGE = 50;
/** The server time the first page must stay under. */
const FIRST_PAGE_BUDGET_MS = 300;
const USER = "dev-user";
const DAY = 86_400_000;

const percentile = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))];
const round = (x) => Math.round(x * 10) / 10;

/** Creates the ledger's schema with the ledger's own store, then writes ROWS charges in one transaction. */
async function fillLedger(path) {
  const { SqliteLedgerStore } = await import(join(ROOT, "services/ledger/dist/store/sqlite/sqlite-store.js"));
  const store = await SqliteLedgerStore.open({ path });
  await store.close();
  const db = new DatabaseSync(path);
  db.exec("PRAGMA foreign_keys = OFF; BEGIN");
  const hold = db.prepare(
    `INSERT INTO holds (hold_id, user_id, amount_credits, state, captured_credits, created_at, expires_at, route_key, settled_at, capability_key, agent_name)
     VALUES (?, ?, ?, 'captured', ?, ?, ?, ?, ?, ?, ?)`,
  );
  const usage = db.prepare(
    `INSERT INTO usage (item_key, kind, hold_id, user_id, usage_id, created_at, product_key, capability_key, route_key, provider, network_key,
                        status, duration_ms, agent_name, trace_id, credits_charged)
     VALUES (?, 'charge', ?, ?, ?, ?, ?, ?, ?, ?, 'direct', 'succeeded', ?, ?, ?, ?)`,
  );
  const routes = [
    ["email.send", "email.send.resend", "resend", 10],
    ["email.send", "email.send.postmark", "postmark", 14],
    ["search.web", "search.web.exa", "exa", 5],
    ["geo.time.current", "geo.time.current.timeapi", "timeapi", 1],
  ];
  const agents = ["alpha", "beta", "gamma", null];
  const now = Date.now();
  for (let i = 0; i < ROWS; i++) {
    const [capability, route, provider, price] = routes[i % routes.length];
    const at = now - Math.floor((i / ROWS) * 30 * DAY);
    const holdId = `att_bench${String(i).padStart(8, "0")}`;
    const agent = agents[i % agents.length];
    hold.run(holdId, USER, price, price, at, at + 60_000, route, at, capability, agent);
    usage.run(
      holdId,
      holdId,
      USER,
      `use_${holdId}`,
      at,
      capability,
      capability,
      route,
      provider,
      40 + (i % 200),
      agent,
      randomUUID().replace(/-/g, ""),
      price,
    );
  }
  db.exec("COMMIT");
  db.close();
}

async function timed(fn) {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

const stats = (xs) => ({ p50: round(percentile(xs, 50)), p95: round(percentile(xs, 95)), max: round(Math.max(...xs)) });

/**
 * The gateway's own durations (ms) of the first `count` requests to `path` (under the API base path), from
 * its access log; waits for the lines, which the logger writes asynchronously.
 */
async function serverTimes(logFile, path, count) {
  for (let tries = 0; tries < 100; tries++) {
    const durations = readFileSync(logFile, "utf8")
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line))
      .filter((entry) => entry.req?.url?.endsWith(path) && entry.res?.statusCode === 200)
      .map((entry) => entry.durationMs);
    if (durations.length >= count) return durations.slice(0, count);
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the gateway's access log (${logFile}) has fewer than ${count} lines for ${path}`);
}

function rssMb(pid) {
  const line = readFileSync(`/proc/${pid}/status`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("VmRSS:"));
  return Number(line.split(/\s+/)[1]) / 1024;
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), "bench-console-"));
  const ledgerSqlitePath = join(dir, "ledger.sqlite");
  const fill = await timed(() => fillLedger(ledgerSqlitePath));
  console.log(`filled ${ROWS} usage rows in ${Math.round(fill.ms)} ms`);
  // One client walking pages as fast as it can: the per-key rate limit is not what is measured. Every
  // request gets an access-log line with the gateway's own duration (the server time).
  const system = await startSystem({
    logDir: dir,
    ledgerSqlitePath,
    serviceEnv: { RATE_LIMIT_RPS: "100000", RATE_LIMIT_BURST: "100000", ACCESS_LOG: "all", LOG_LEVEL: "info" },
  });
  const auth = { authorization: `Bearer ${system.devKey}` };
  const get = (path) => fetch(system.baseUrl + path, { headers: auth });
  try {
    const gateway = system.processes.find((p) => p.name === "gateway");
    const ledger = system.processes.find((p) => p.name === "ledger");
    // First page, as the Activity view asks for it.
    const first = [];
    for (let i = 0; i < SAMPLES; i++) {
      const { ms, value } = await timed(async () => (await get(`/usage?limit=${PAGE}`)).json());
      if (value.items?.length !== PAGE) throw new Error(`first page: ${JSON.stringify(value).slice(0, 300)}`);
      first.push(ms);
    }
    const firstServer = await serverTimes(join(dir, "gateway.log"), `/usage?limit=${PAGE}`, SAMPLES);
    // Every page, as the Activity view pages: each charge must be seen once.
    const seen = new Set();
    let rows = 0;
    let pages = 0;
    let slowestPageMs = 0;
    const walk = await timed(async () => {
      for (let cursor = null; ;) {
        const { ms, value: page } = await timed(async () => (await get(`/usage?limit=${PAGE}${cursor ? `&cursor=${cursor}` : ""}`)).json());
        slowestPageMs = Math.max(slowestPageMs, ms);
        for (const item of page.items) if (item.kind === "charge") seen.add(item.id);
        rows += page.items.length;
        pages++;
        if (!(cursor = page.nextCursor)) break;
      }
    });
    if (seen.size !== ROWS) throw new Error(`walked ${rows} rows with ${seen.size} distinct charges, expected ${ROWS}`);
    // The Overview's one request, and the 30-day summary in it.
    const latency = async (path, times) => {
      const samples = [];
      let body;
      for (let i = 0; i < times; i++) {
        const { ms, value } = await timed(async () => (await get(path)).json());
        samples.push(ms);
        body = value;
      }
      return { samples, body };
    };
    const overview = await latency("/overview", 10);
    const summary = await latency("/usage/summary", 10);
    // The CSV export, with the memory of the gateway and of the ledger sampled meanwhile.
    const rssBefore = { gateway: rssMb(gateway.pid), ledger: rssMb(ledger.pid) };
    const rss = { gateway: [rssBefore.gateway], ledger: [rssBefore.ledger] };
    const sampler = setInterval(() => {
      rss.gateway.push(rssMb(gateway.pid));
      rss.ledger.push(rssMb(ledger.pid));
    }, 50);
    let bytes = 0;
    let lines = 0;
    const exported = await timed(async () => {
      const res = await get("/usage/export");
      for await (const chunk of res.body) {
        bytes += chunk.length;
        for (const b of chunk) if (b === 10) lines++;
      }
    });
    clearInterval(sampler);
    const memory = (name) => ({
      before: round(rssBefore[name]),
      peak: round(Math.max(...rss[name])),
      after: round(rssMb((name === "gateway" ? gateway : ledger).pid)),
      // Flat memory: the second half of the export peaks no higher than the first (memory that grew with the rows would).
      firstHalfPeak: round(Math.max(...rss[name].slice(0, Math.ceil(rss[name].length / 2)))),
      secondHalfPeak: round(Math.max(...rss[name].slice(Math.ceil(rss[name].length / 2)))),
      samples: rss[name].length,
    });
    const result = {
      machine: describeMachine(),
      rows: ROWS,
      fillMs: Math.round(fill.ms),
      firstPage: {
        limit: PAGE,
        samples: SAMPLES,
        serverMs: stats(firstServer),
        clientMs: stats(first),
        budgetMs: FIRST_PAGE_BUDGET_MS,
        withinBudget: Math.max(...firstServer) < FIRST_PAGE_BUDGET_MS,
      },
      walk: {
        limit: PAGE,
        pages,
        rows,
        distinctCharges: seen.size,
        totalMs: Math.round(walk.ms),
        perPageMs: round(walk.ms / pages),
        slowestPageMs: round(slowestPageMs),
      },
      overview: { ...stats(overview.samples), charges: overview.body.spend?.count },
      summary: { ...stats(summary.samples), charges: summary.body.count },
      export: {
        ms: Math.round(exported.ms),
        megabytes: round(bytes / 1e6),
        rows: lines - 1,
        rssMb: { gateway: memory("gateway"), ledger: memory("ledger") },
      },
    };
    console.log(JSON.stringify(result, null, 2));
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(join(RESULTS_DIR, `console-${result.machine.date.replace(/[:.]/g, "-")}.json`), JSON.stringify(result, null, 2) + "\n");
    if (!result.firstPage.withinBudget) process.exitCode = 1;
  } finally {
    await stopAllManaged();
    rmSync(dir, { recursive: true, force: true });
  }
}

process.on("SIGINT", () => {
  killAllManagedSync();
  process.exit(130);
});
main().catch((err) => {
  console.error(err);
  killAllManagedSync();
  process.exit(1);
});
