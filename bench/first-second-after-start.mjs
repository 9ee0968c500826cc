#!/usr/bin/env node
// `npm run bench:first-second`: is the system really ready when `npm start` says so? Starts the
// system through the same launcher as `npm start` (scripts/system.mjs, free ports, a fresh ledger),
// and from the moment it is announced sends a fixed-rate (open-loop) mix of executes, recommends
// and catalog reads for --duration seconds. Reports the p99 of the requests sent in the first second
// after the announcement and of those sent in the steady state (the last --steady seconds), and
// fails (exit 1) unless first-second p99 ≤ 2 × steady p99 and every answer of the first second is a
// 200: a system announced before it is ready answers its first callers far slower (or not at all).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startSystem } from "../scripts/system.mjs";
import { createHistogram, summarize } from "./lib/histogram.mjs";

const HELP = `usage: npm run bench:first-second -- [--rate <req/s>] [--duration <s>] [--steady <s>] [--keep-logs]

  --rate <n>       requests per second, sent on a fixed schedule whatever the answers take (default 60:
                   one third each executes, recommends and GET /domains or a contract)
  --duration <s>   seconds of load after the announcement (default 30)
  --steady <s>     the last seconds of the load that count as the steady state (default 10)
  --keep-logs      keep the services' logs (kept anyway when the run fails)
`;

const { values: args } = parseArgs({
  options: {
    rate: { type: "string", default: "60" },
    duration: { type: "string", default: "30" },
    steady: { type: "string", default: "10" },
    "keep-logs": { type: "boolean", default: false },
    help: { type: "boolean", default: false },
  },
});
if (args.help) {
  console.log(HELP);
  process.exit(0);
}
const RATE = Number(args.rate);
const DURATION_S = Number(args.duration);
const STEADY_S = Number(args.steady);
/** How much slower the first second may answer than the steady state (p99 against p99). */
const MAX_RATIO = 2;

const dir = mkdtempSync(join(tmpdir(), "agentic-first-second-"));
const system = await startSystem({
  freePorts: true,
  logDir: dir,
  env: {
    ...process.env,
    LEDGER_SQLITE_PATH: join(dir, "ledger.sqlite"),
    LOG_LEVEL: "warn",
    // One key drives all the load: its own limits are not under test.
    RATE_LIMIT_RPS: "100000",
    RATE_LIMIT_BURST: "100000",
    RATE_LIMIT_MAX_IN_FLIGHT: "100000",
  },
});
const announcedAt = performance.now();
let failed = false;
try {
  const report = await runLoad(system);
  failed = !report.passed;
} catch (err) {
  failed = true;
  console.error(`bench:first-second: ${err?.stack ?? err}`);
} finally {
  await system.stop();
  if (failed || args["keep-logs"]) console.log(`service logs: ${dir}`);
  else rmSync(dir, { recursive: true, force: true });
}
process.exit(failed ? 1 : 0);

/** The mix: each request is one of these, in turn. */
function requests(baseUrl, apiKey) {
  const authed = { authorization: `Bearer ${apiKey}`, "content-type": "application/json" };
  const capability = `${baseUrl}/domains/email/capabilities/send`;
  let n = 0;
  return [
    {
      kind: "execute",
      send: () =>
        fetch(`${capability}/execute`, {
          method: "POST",
          // A fresh Idempotency-Key each, as the SDK sends; no provider named, so the router ranks the routes.
          headers: { ...authed, "idempotency-key": `first-second-${n++}` },
          body: JSON.stringify({ to: "ada@example.com", subject: "Bench", text: "first second" }),
        }),
    },
    { kind: "recommend", send: () => fetch(`${capability}/recommend`, { method: "POST", headers: authed, body: "{}" }) },
    { kind: "catalog", send: () => fetch(n % 2 ? `${baseUrl}/domains` : `${capability}/contract`) },
  ];
}

async function runLoad({ baseUrl, apiKey }) {
  // The wallet is funded first (one request); the clock of "the first second" starts at the announcement.
  const funded = await fetch(`${baseUrl}/dev/init`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ balanceCredits: 10_000_000 }),
  });
  if (!funded.ok) throw new Error(`POST /dev/init answered ${funded.status}: ${await funded.text()}`);

  const mix = requests(baseUrl, apiKey);
  const windows = { first: newWindow(), steady: newWindow() };
  const statuses = new Map();
  const firstSecondStatuses = new Map();
  /** Each request of the first second: what it was, when it left (ms after the announcement), how long it took. */
  const firstSecond = [];
  const count = (status, sinceAnnouncement) => {
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    if (sinceAnnouncement < 1) firstSecondStatuses.set(status, (firstSecondStatuses.get(status) ?? 0) + 1);
  };
  const total = Math.round(RATE * DURATION_S);
  const inFlight = [];
  for (let i = 0; i < total; i++) {
    // Open loop: request i leaves at announcedAt + i/RATE, whether or not earlier ones have answered.
    const due = announcedAt + (i * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const { kind, send } = mix[i % mix.length];
    const sentAt = performance.now();
    const sinceAnnouncement = (sentAt - announcedAt) / 1000;
    const window = sinceAnnouncement < 1 ? windows.first : sinceAnnouncement >= DURATION_S - STEADY_S ? windows.steady : undefined;
    inFlight.push(
      send().then(
        async (res) => {
          await res.arrayBuffer();
          const ms = performance.now() - sentAt;
          window?.record(kind, ms);
          if (sinceAnnouncement < 1) firstSecond.push({ kind, atMs: Math.round(sinceAnnouncement * 1000), ms: Math.round(ms) });
          count(res.status, sinceAnnouncement);
        },
        (err) => count(`error ${err?.cause?.code ?? err?.name}`, sinceAnnouncement),
      ),
    );
  }
  await Promise.all(inFlight);

  const first = windows.first.summary();
  const steady = windows.steady.summary();
  const ratio = steady.all.p99 ? first.all.p99 / steady.all.p99 : Infinity;
  // A first second answered with fast errors would pass the ratio: every answer of the first second must be a 200.
  const firstAllOk = [...firstSecondStatuses.keys()].every((s) => s === 200);
  const passed = ratio <= MAX_RATIO && firstAllOk;
  const fmt = (v) => (v === null || v === undefined ? "-" : `${v.toFixed(1)} ms`);
  console.log(`\nfirst second after the announcement vs steady state (${RATE} req/s for ${DURATION_S} s, steady = last ${STEADY_S} s)`);
  console.log(
    `${"".padEnd(10)} ${"first s p50".padStart(12)} ${"first s p99".padStart(12)} ${"steady p50".padStart(12)} ${"steady p99".padStart(12)}`,
  );
  for (const kind of ["all", "execute", "recommend", "catalog"]) {
    const a = first[kind];
    const b = steady[kind];
    console.log(
      `${kind.padEnd(10)} ${fmt(a?.p50).padStart(12)} ${fmt(a?.p99).padStart(12)} ${fmt(b?.p50).padStart(12)} ${fmt(b?.p99).padStart(12)}`,
    );
  }
  console.log(
    `samples: first second ${first.all.samples}, steady ${steady.all.samples}; answers in the first second ` +
      `${JSON.stringify(Object.fromEntries(firstSecondStatuses))}, in the whole run ${JSON.stringify(Object.fromEntries(statuses))}`,
  );
  console.log(
    `${passed ? "PASS" : "FAIL"}: first-second p99 ${fmt(first.all.p99)} is ${ratio.toFixed(2)}x the steady p99 ${fmt(steady.all.p99)} ` +
      `(at most ${MAX_RATIO}x, every answer of the first second 200${firstAllOk ? "" : ": not so"})`,
  );
  const slowest = firstSecond.sort((a, b) => b.ms - a.ms).slice(0, 5);
  console.log(`slowest of the first second: ${slowest.map((r) => `${r.kind} sent at +${r.atMs} ms took ${r.ms} ms`).join("; ")}`);
  return { passed, first, steady, ratio };
}

/** Latencies of the requests sent in one window, per kind and all together. */
function newWindow() {
  const hists = { all: createHistogram() };
  return {
    record(kind, ms) {
      hists[kind] ??= createHistogram();
      hists[kind].record(ms * 1000);
      hists.all.record(ms * 1000);
    },
    summary: () => Object.fromEntries(Object.entries(hists).map(([kind, h]) => [kind, summarize(h)])),
  };
}
