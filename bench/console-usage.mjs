#!/usr/bin/env node
// `npm run bench:console`: the console's Activity and export at scale. Fills a fresh ledger with
// ROWS usage items of one user (charges over the last 30 days, written straight into the SQLite file
// before the ledger starts: this measures reads, so the rows need no journal behind them), starts the
// whole system on it, then measures through the gateway:
//   - GET /usage?limit=50 (the Activity view's first page): latency over SAMPLES requests;
//   - walking every page with the cursor (limit 100): pages, rows, total and per-page time;
//   - GET /usage/summary (the Overview's 30 days): latency;
//   - GET /usage/export (CSV of every row), streamed: time, bytes, rows, and the gateway's RSS
//     sampled every 50 ms during it (flat memory: the peak stays near the start).
// Figures are printed and written to bench/results/console-<date>.json.
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { RESULTS_DIR, ROOT } from "./lib/paths.mjs";
import { killAllManagedSync, stopAllManaged } from "./lib/processes.mjs";
import { startSystem } from "./lib/system.mjs";

const ROWS = Number(process.env.BENCH_USAGE_ROWS ?? 100_000);
const SAMPLES = 50;
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
  // One client walking pages as fast as it can: the per-key rate limit is not what is measured.
  const system = await startSystem({ logDir: dir, ledgerSqlitePath, serviceEnv: { RATE_LIMIT_RPS: "100000", RATE_LIMIT_BURST: "100000" } });
  const auth = { authorization: `Bearer ${system.devKey}` };
  const get = (path) => fetch(system.baseUrl + path, { headers: auth });
  try {
    const gateway = system.processes.find((p) => p.name === "gateway");
    // First page, as the Activity view asks for it.
    const first = [];
    for (let i = 0; i < SAMPLES; i++) {
      const { ms, value } = await timed(async () => (await get("/usage?limit=50")).json());
      if (value.items?.length !== 50) throw new Error(`first page: ${JSON.stringify(value).slice(0, 300)}`);
      first.push(ms);
    }
    // Every page.
    let rows = 0;
    let pages = 0;
    const walk = await timed(async () => {
      for (let cursor = null; ;) {
        const page = await (await get(`/usage?limit=100${cursor ? `&cursor=${cursor}` : ""}`)).json();
        rows += page.items.length;
        pages++;
        if (!(cursor = page.nextCursor)) break;
      }
    });
    if (rows < ROWS) throw new Error(`walked ${rows} rows, expected at least ${ROWS}`);
    // The Overview's 30-day summary.
    const summary = [];
    let summed = 0;
    for (let i = 0; i < 10; i++) {
      const { ms, value } = await timed(async () => (await get("/usage/summary")).json());
      summary.push(ms);
      summed = value.count;
    }
    // The CSV export, with the gateway's memory sampled meanwhile.
    const rssBefore = rssMb(gateway.pid);
    const rss = [rssBefore];
    const sampler = setInterval(() => rss.push(rssMb(gateway.pid)), 50);
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
    const result = {
      at: new Date().toISOString(),
      rows: ROWS,
      fillMs: Math.round(fill.ms),
      firstPage: {
        samples: SAMPLES,
        p50Ms: round(percentile(first, 50)),
        p95Ms: round(percentile(first, 95)),
        maxMs: round(Math.max(...first)),
      },
      walk: { pages, rows, totalMs: Math.round(walk.ms), perPageMs: round(walk.ms / pages) },
      summary: { p50Ms: round(percentile(summary, 50)), maxMs: round(Math.max(...summary)), charges: summed },
      export: {
        ms: Math.round(exported.ms),
        megabytes: round(bytes / 1e6),
        rows: lines - 1,
        gatewayRssMb: { before: round(rssBefore), peak: round(Math.max(...rss)), after: round(rssMb(gateway.pid)) },
      },
    };
    console.log(JSON.stringify(result, null, 2));
    mkdirSync(RESULTS_DIR, { recursive: true });
    writeFileSync(join(RESULTS_DIR, `console-${result.at.replace(/[:.]/g, "-")}.json`), JSON.stringify(result, null, 2) + "\n");
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
