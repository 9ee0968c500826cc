// The score of a match, 0..1, and the threshold below which the index abstains. The score blends how
// much of the task the capability covers (coverage, 0..1, from rare words) with how it ranks against
// the best BM25 match of the same task, so it reads alike on every task. The constants are calibrated
// on the labelled evaluation set (eval/intent/, `npm run eval:intent` prints the sweep).

export interface IntentScoring {
  /** Below this top score the answer abstains. */
  abstainBelow: number;
  /** Weight of coverage in the score (the rest is the BM25 ratio to the task's best match). */
  coverageWeight: number;
  /** What a fuzzy (typo) match counts of a word. */
  fuzzyCredit: number;
  /** What a generic verb (buy, order, make) weighs in coverage, against 1 for any other word. */
  genericWeight: number;
  /** What a name (a capitalized word past the first: Tokyo, Maria) weighs in coverage. */
  nameWeight: number;
  /** Document frequency assumed for a word no capability uses (so it weighs like a rare word, not infinitely). */
  unknownTermDocumentFrequency: number;
}

// Swept on the labelled set (coverage weight 0.5-0.8, unknown-word frequency 1-4, threshold 0.4-0.55):
// 0.8 / 2 / 0.45 balances correct abstention (60 %) against false abstention (13 %); neither meets
// its target yet (see the README's figures).
export const INTENT_SCORING: IntentScoring = {
  abstainBelow: 0.45,
  coverageWeight: 0.8,
  fuzzyCredit: 0.8,
  genericWeight: 0.3,
  nameWeight: 0.25,
  unknownTermDocumentFrequency: 2,
};

export function scoreOf(coverage: number, bm25: number, topBm25: number, s: IntentScoring): number {
  const relative = topBm25 > 0 ? bm25 / topBm25 : 0;
  const score = s.coverageWeight * coverage + (1 - s.coverageWeight) * relative;
  return Math.round(score * 10_000) / 10_000;
}
