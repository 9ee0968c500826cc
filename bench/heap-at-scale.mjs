// `node bench/heap-at-scale.mjs <times> <service> [node flags of the service...]`: starts the system on a generated catalog <times>
// today's size (plus the 200-route capability), reads what the catalog bench reads (the lists, a
// page, recommend), then writes a heap snapshot of <service> and prints its RSS and the constructors
// that retain most of its heap: where a service's memory at scale goes.
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { startSystem } from "./lib/system.mjs";

const require = createRequire(import.meta.url);
const { generateCatalog } = require("../services/catalog/scripts/generate-catalog.js");
const [times = "100", service = "gateway", ...serviceFlags] = process.argv.slice(2);
const dir = mkdtempSync(join(tmpdir(), "agentic-heap-catalog-"));
const logDir = mkdtempSync(join(tmpdir(), "agentic-heap-logs-"));
generateCatalog(Number(times) - 1, dir, { wide: 200, withShipped: true });
const system = await startSystem({
  logDir,
  nodeArgs: { [service]: [...serviceFlags, "--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${logDir}`] },
  serviceEnv: { CATALOG_DIR: dir, RATE_LIMIT_RPS: "100000", RATE_LIMIT_BURST: "100000", RATE_LIMIT_MAX_IN_FLIGHT: "100000" },
  ledgerSqlitePath: join(logDir, "ledger.sqlite"),
});
// Output piped into `head` must not end this process before it stops the system it started.
process.stdout.on("error", () => undefined);
for (const signal of ["SIGINT", "SIGTERM"]) process.once(signal, () => void system.stop().finally(() => process.exit(130)));
const rssOf = (pid) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;
try {
  const base = system.baseUrl;
  const proc = system.processes.find((p) => p.name === service);
  console.log(`${service} RSS after start: ${rssOf(proc.pid).toFixed(0)} MB`);
  const headers = { authorization: `Bearer ${system.devKey}`, "content-type": "application/json" };
  for (let i = 0; i < 20; i++) {
    for (const path of ["/capabilities", "/routes", "/domains?limit=50", "/SKILL.md", "/llms.txt"]) {
      const body = await (await fetch(base + path)).arrayBuffer();
      if (i === 0)
        console.log(`${service} RSS after GET ${path} (${(body.byteLength / 1024).toFixed(0)} KB): ${rssOf(proc.pid).toFixed(0)} MB`);
    }
    for (const path of [
      "/domains/models/capabilities/chat-complete/recommend?limit=5",
      "/domains/wide/capabilities/fanout-lookup/recommend?limit=5",
    ])
      await (await fetch(base + path, { method: "POST", headers, body: JSON.stringify({ agentName: "bench_agent" }) })).arrayBuffer();
  }
  console.log(`${service} RSS after the reads: ${rssOf(proc.pid).toFixed(0)} MB`);
  process.kill(proc.pid, "SIGUSR2");
  let file;
  for (let i = 0; i < 600 && !file; i++) {
    await new Promise((r) => setTimeout(r, 500));
    const found = readdirSync(logDir).find((f) => f.endsWith(".heapsnapshot"));
    // Written once its size stops growing.
    if (found) {
      const size = () => statSync(join(logDir, found)).size;
      const a = size();
      await new Promise((r) => setTimeout(r, 1000));
      if (a === size() && a > 0) file = join(logDir, found);
    }
  }
  if (process.env.HEAP_SNAPSHOT_COPY) copyFileSync(file, process.env.HEAP_SNAPSHOT_COPY);
  const snap = JSON.parse(readFileSync(file, "utf8"));
  const {
    node_fields: fields,
    node_types: [types],
  } = snap.snapshot.meta;
  const width = fields.length;
  const [typeAt, nameAt, sizeAt] = ["type", "name", "self_size"].map((f) => fields.indexOf(f));
  const bySelf = new Map();
  let total = 0;
  for (let i = 0; i < snap.nodes.length; i += width) {
    const type = types[snap.nodes[i + typeAt]];
    const name = type === "object" || type === "closure" ? snap.strings[snap.nodes[i + nameAt]] : `(${type})`;
    const size = snap.nodes[i + sizeAt];
    total += size;
    const e = bySelf.get(name) ?? { count: 0, bytes: 0 };
    e.count++;
    e.bytes += size;
    bySelf.set(name, e);
  }
  console.log(`heap (self sizes): ${(total / 1048576).toFixed(1)} MB`);
  for (const [name, e] of [...bySelf].sort((a, b) => b[1].bytes - a[1].bytes).slice(0, 25))
    console.log(`${(e.bytes / 1048576).toFixed(1).padStart(7)} MB ${String(e.count).padStart(8)}  ${name}`);
} finally {
  await system.stop();
  rmSync(dir, { recursive: true, force: true });
  rmSync(logDir, { recursive: true, force: true });
}
