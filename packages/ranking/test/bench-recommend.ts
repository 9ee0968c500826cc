// Micro-benchmark of the pure recommend path (not a jest test): 5 routes with live traffic, 10,000
// recommends, µs per recommend. Health is read the way the RPC handler reads it (one snapshot per
// recommend, included in the time).
//   npx tsc -p packages/ranking/tsconfig.test.json --noEmit false --outDir /tmp/ranking-bench && node /tmp/ranking-bench/packages/ranking/test/bench-recommend.js
import { recommend } from "../src/domain/recommendation";
import { RouteHealthBook } from "../src/domain/route-health";
import { capability, HEALTH, route, SCORING } from "./routes";

const NOW = Date.parse("2026-11-22T10:00:00Z");
const ITERATIONS = Number(process.argv[2] ?? 10_000);

const routes = ["resend", "sendgrid", "postmark", "mailgun", "ses"].map((p, i) =>
  route(p, { startingCostCredits: 10 + i, supportedFeatures: i % 2 ? ["tracking", "html"] : ["html"] }),
);
const book = new RouteHealthBook(HEALTH);
for (const r of routes) {
  for (let i = 0; i < 200; i++)
    book.record({
      routeKey: r.routeKey,
      ok: i % 10 !== 0,
      errorKind: i % 10 ? "" : "timeout",
      latencyMs: 100 + ((i * 37) % 400),
      observedAtMs: NOW - 60_000 + i,
    });
}
const cap = capability();
const keys = routes.map((r) => r.routeKey);

function once(): void {
  recommend({
    capability: cap,
    routes,
    catalogVersion: "v1",
    preferences: { goals: ["cost", "reliability"], source: "request" },
    fields: { to: "a@b.co", subject: "hi", tracking: true },
    balanceCredits: 1_000,
    health: book.snapshot(keys, NOW),
    settings: SCORING,
  });
}

for (let i = 0; i < 2_000; i++) once(); // warm-up
const runs: number[] = [];
for (let run = 0; run < 5; run++) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < ITERATIONS; i++) once();
  runs.push(Number(process.hrtime.bigint() - start) / 1e3 / ITERATIONS);
}
runs.sort((a, b) => a - b);
console.log(`recommend, 5 routes with traffic: median ${runs[2]!.toFixed(1)} µs (runs ${runs.map((r) => r.toFixed(1)).join(", ")})`);
