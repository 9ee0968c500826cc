// How the SQLite store's commits load the event loop: C concurrent loops of hold + capture (with a
// usage item) on a fresh file, reporting pairs/s, a pair's p50/p99, event-loop utilization, the
// event loop's delay (p50/p99/max: how long anything else would have waited) and CPU per pair (this
// process, threadpool included). A measurement for the README, not a test; compare commits back to back.
// Run: npx node --require ./test/register-ts.cjs ./test/sqlite-commit-bench.ts [concurrency=16] [pairs=4000]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import { newId } from "@agentic/platform";
import { SqliteLedgerStore } from "../src/store/sqlite/sqlite-store";

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

async function main(concurrency: number, pairs: number): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "ledger-commit-bench-"));
  const store = await SqliteLedgerStore.open({ path: join(dir, "ledger.sqlite") });
  try {
    await store.grant({ grantId: "g", userId: "u1", amountCredits: 1e12, reason: "bench", now: new Date() });
    let next = 0;
    const latencies: number[] = [];
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const elu0 = performance.eventLoopUtilization();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (next < pairs) {
          next++;
          const start = performance.now();
          // Ids as the services make them (what their indexes hold decides how much each commit writes).
          const holdId = newId("hold");
          const now = new Date();
          await store.hold({
            holdId,
            userId: "u1",
            amountCredits: 10,
            routeKey: "r",
            expiresAt: new Date(now.getTime() + 60_000),
            now,
          });
          const usage = {
            usageId: newId("usage"),
            createdAt: now,
            productKey: "p",
            capabilityKey: "p.call",
            routeKey: "r",
            provider: "x",
            networkKey: "direct",
            status: "succeeded",
            durationMs: 3,
            traceId: "t",
          };
          await store.settleHold({ holdId, userId: "u1", kind: "capture", capturedCredits: 7, usage, now: new Date() });
          latencies.push(performance.now() - start);
        }
      }),
    );
    const wallMs = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const elu = performance.eventLoopUtilization(elu0);
    delay.disable();
    latencies.sort((a, b) => a - b);
    const ms = (ns: number) => (ns / 1e6).toFixed(1);
    console.log(
      `concurrency ${concurrency}, ${pairs} pairs: ${((pairs / wallMs) * 1000).toFixed(0)} pairs/s, pair p50 ${percentile(latencies, 0.5).toFixed(1)} ` +
        `p99 ${percentile(latencies, 0.99).toFixed(1)} ms; event loop ${(elu.utilization * 100).toFixed(0)} % busy, delay p50 ${ms(delay.percentile(50))} ` +
        `p99 ${ms(delay.percentile(99))} max ${ms(delay.max)} ms; CPU ${((cpu.user + cpu.system) / pairs).toFixed(0)} µs/pair`,
    );
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main(Number(process.argv[2] ?? 16), Number(process.argv[3] ?? 4000)).catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
