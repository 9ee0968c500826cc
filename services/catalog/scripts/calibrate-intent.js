// `npm run eval:intent -- --calibrate`: fits the abstention threshold on the tuning part of the labelled
// set only (src/intent-eval/split.ts) and prints it, with what it gives on both parts. The threshold is the
// evidence `halfAt` that scores 0.5: the largest at which at most 2.5 % of the tuning part's in-scope tasks
// fall below it (the target is 3 %; the half-point margin is for tasks tuning has not seen). Copy the
// printed value into packages/intent/src/score.ts.
const { IntentIndex, INTENT_SCORING } = require("@agentic/intent");
const { DEFAULT_CATALOG_DIR, loadCatalog } = require("../dist/source");
const { intentSourcesOf } = require("../dist/intent-eval/sources");
const { loadEvalSet } = require("../dist/intent-eval/eval-set");
const { splitOf } = require("../dist/intent-eval/split");

const FALSE_ABSTENTION_FITTED = Number(process.env.FIT_FALSE_ABSTENTION ?? "0.025");

function calibrate() {
  const index = new IntentIndex(intentSourcesOf(loadCatalog(DEFAULT_CATALOG_DIR)), "calibration");
  const rows = loadEvalSet().map((t) => ({
    inScope: t.expected !== undefined,
    split: splitOf(t.task),
    evidence: index.signals(t.task, 1)[0]?.evidence ?? 0,
  }));
  const tuningInScope = rows
    .filter((r) => r.split === "tuning" && r.inScope)
    .map((r) => r.evidence)
    .sort((a, b) => a - b);
  // Abstaining below the k-th smallest evidence abstains on at most k tasks.
  const halfAt = tuningInScope[Math.floor(FALSE_ABSTENTION_FITTED * tuningInScope.length)];
  const pct = (x) => `${(x * 100).toFixed(1)} %`;
  console.log(`halfAt fitted on the tuning part: ${halfAt.toFixed(2)} (in use: ${INTENT_SCORING.halfAt})`);
  for (const part of ["tuning", "held-out"]) {
    const of = rows.filter((r) => r.split === part);
    const inScope = of.filter((r) => r.inScope);
    const outOfScope = of.filter((r) => !r.inScope);
    const falseAbstention = inScope.filter((r) => r.evidence < halfAt).length / inScope.length;
    const correctAbstention = outOfScope.filter((r) => r.evidence < halfAt).length / outOfScope.length;
    console.log(`${part.padEnd(9)} false abstention ${pct(falseAbstention)}, correct abstention ${pct(correctAbstention)}`);
  }
}

module.exports = { calibrate };
