// `npm run eval:intent`: measures intent routing on the labelled set (eval/intent/) against the shipped
// catalog, prints the figures (whole set, tuning part, held-out part) next to their targets, and writes each task's result to
// eval/intent/results/last-run.jsonl. Exits non-zero when a target is missed.
const { mkdirSync, writeFileSync } = require("node:fs");
const { join } = require("node:path");
const { IntentIndex } = require("@agentic/intent");
const { DEFAULT_CATALOG_DIR, loadCatalog } = require("../dist/source");
const { intentSourcesOf } = require("../dist/intent-eval/sources");
const { EVAL_DIR, loadEvalSet } = require("../dist/intent-eval/eval-set");
const { evaluate, INTENT_TARGETS } = require("../dist/intent-eval/evaluate");

const scaleAt = process.argv.indexOf("--scale");
if (scaleAt >= 0) {
  require("./eval-intent-at-scale").evaluateAtScale(Number(process.argv[scaleAt + 1] ?? "100"));
  return;
}
if (process.argv.includes("--calibrate")) {
  require("./calibrate-intent").calibrate();
  return;
}
const catalog = loadCatalog(DEFAULT_CATALOG_DIR);
const buildStart = performance.now();
const index = new IntentIndex(intentSourcesOf(catalog), catalog.listDomains()[0] ? "shipped" : "empty");
const buildMs = performance.now() - buildStart;
const tasks = loadEvalSet();
const { results, metrics: m, bySplit } = evaluate(index, tasks, 20);

// Each figure on the whole set (what the targets are judged on), the tuning part and the held-out part
// (src/intent-eval/split.ts): the held-out column is what tuning did not see.
const parts = [m, bySplit.tuning, bySplit["held-out"]];
const pct = (x) => `${(x * 100).toFixed(1)} %`;
const ms = (x) => `${x.toFixed(3)} ms`;
const rows = [
  ["in-scope tasks", (p) => String(p.inScope)],
  ["out-of-scope tasks", (p) => String(p.outOfScope)],
  ["Hit@1", (p) => pct(p.hitAt1), `>= ${pct(INTENT_TARGETS.hitAt1)}`, m.hitAt1 >= INTENT_TARGETS.hitAt1],
  ["Hit@3", (p) => pct(p.hitAt3), `>= ${pct(INTENT_TARGETS.hitAt3)}`, m.hitAt3 >= INTENT_TARGETS.hitAt3],
  ["MRR", (p) => p.mrr.toFixed(3)],
  ["abstention precision", (p) => pct(p.abstentionPrecision)],
  [
    "abstention recall (correct abstention)",
    (p) => pct(p.abstentionRecall),
    `>= ${pct(INTENT_TARGETS.abstentionRecall)}`,
    m.abstentionRecall >= INTENT_TARGETS.abstentionRecall,
  ],
  [
    "false abstention",
    (p) => pct(p.falseAbstention),
    `<= ${pct(INTENT_TARGETS.falseAbstentionMax)}`,
    m.falseAbstention <= INTENT_TARGETS.falseAbstentionMax,
  ],
  [
    "constraints exact",
    (p) => pct(p.constraintExact),
    `>= ${pct(INTENT_TARGETS.constraintExact)}`,
    m.constraintExact >= INTENT_TARGETS.constraintExact,
  ],
  ["latency p50 (in process, per task best of 20)", (p) => ms(p.p50Ms)],
  ["latency p99 (in process, wall, every run)", (p) => ms(p.wallP99Ms)],
  [
    "latency p99 (in process, per task best of 20)",
    (p) => ms(p.p99Ms),
    `<= ${INTENT_TARGETS.p99MsMax} ms`,
    m.p99Ms <= INTENT_TARGETS.p99MsMax,
  ],
];
console.log(`capabilities indexed: ${index.size}; index build ${buildMs.toFixed(1)} ms`);
console.log(`${"".padEnd(48)} ${"whole".padStart(10)} ${"tuning".padStart(10)} ${"held-out".padStart(10)}  target (whole)`);
for (const [name, value, target, ok] of rows) {
  const cells = parts.map((p) => value(p).padStart(10)).join(" ");
  console.log(`${name.padEnd(48)} ${cells}  ${target ?? ""}${ok === undefined ? "" : ok ? "  ok" : "  MISSED"}`);
}
const outDir = join(EVAL_DIR, "results");
mkdirSync(outDir, { recursive: true });
const outFile = join(outDir, "last-run.jsonl");
writeFileSync(outFile, results.map((r) => JSON.stringify(r)).join("\n") + "\n");
console.log(`per-task results: ${outFile}`);
if (rows.some((r) => r[3] === false)) process.exitCode = 1;
