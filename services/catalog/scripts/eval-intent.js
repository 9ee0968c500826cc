// `npm run eval:intent`: measures intent routing on the labelled set (eval/intent/) against the shipped
// catalog, prints the figures next to their targets, and writes each task's result to
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
const catalog = loadCatalog(DEFAULT_CATALOG_DIR);
const buildStart = performance.now();
const index = new IntentIndex(intentSourcesOf(catalog), catalog.listDomains()[0] ? "shipped" : "empty");
const buildMs = performance.now() - buildStart;
const tasks = loadEvalSet();
const { results, metrics: m } = evaluate(index, tasks, 20);

const pct = (x) => `${(x * 100).toFixed(1)} %`;
const rows = [
  ["capabilities indexed", String(index.size), ""],
  ["in-scope tasks", String(m.inScope), ""],
  ["out-of-scope tasks", String(m.outOfScope), ""],
  ["Hit@1", pct(m.hitAt1), `>= ${pct(INTENT_TARGETS.hitAt1)}`, m.hitAt1 >= INTENT_TARGETS.hitAt1],
  ["Hit@3", pct(m.hitAt3), `>= ${pct(INTENT_TARGETS.hitAt3)}`, m.hitAt3 >= INTENT_TARGETS.hitAt3],
  ["MRR", m.mrr.toFixed(3), ""],
  ["abstention precision", pct(m.abstentionPrecision), ""],
  [
    "abstention recall (correct abstention)",
    pct(m.abstentionRecall),
    `>= ${pct(INTENT_TARGETS.abstentionRecall)}`,
    m.abstentionRecall >= INTENT_TARGETS.abstentionRecall,
  ],
  [
    "false abstention",
    pct(m.falseAbstention),
    `<= ${pct(INTENT_TARGETS.falseAbstentionMax)}`,
    m.falseAbstention <= INTENT_TARGETS.falseAbstentionMax,
  ],
  [
    "constraints exact",
    pct(m.constraintExact),
    `>= ${pct(INTENT_TARGETS.constraintExact)}`,
    m.constraintExact >= INTENT_TARGETS.constraintExact,
  ],
  ["latency p50 (in process, per task best of 20)", `${m.p50Ms.toFixed(3)} ms`, ""],
  ["latency p99 (in process, wall, every run)", `${m.wallP99Ms.toFixed(3)} ms`, ""],
  [
    "latency p99 (in process, per task best of 20)",
    `${m.p99Ms.toFixed(3)} ms`,
    `<= ${INTENT_TARGETS.p99MsMax} ms`,
    m.p99Ms <= INTENT_TARGETS.p99MsMax,
  ],
  ["index build", `${buildMs.toFixed(1)} ms`, ""],
];
for (const [name, value, target, ok] of rows) {
  console.log(`${name.padEnd(48)} ${value.padStart(10)}  ${target}${ok === undefined ? "" : ok ? "  ok" : "  MISSED"}`);
}
const outDir = join(EVAL_DIR, "results");
mkdirSync(outDir, { recursive: true });
const outFile = join(outDir, "last-run.jsonl");
writeFileSync(outFile, results.map((r) => JSON.stringify(r)).join("\n") + "\n");
console.log(`per-task results: ${outFile}`);
if (rows.some((r) => r[3] === false)) process.exitCode = 1;
