// The score of a match, 0..1, and the threshold below which the index abstains. Evidence is the match's
// BM25 (how strongly its text matches the task's words, rare words counting most) times its coverage
// (the share of the task's informative words it holds, 0..1, so a task mostly about something else
// scores low however well one word matches), raised for each word pair it shares with the task. The
// score maps evidence e to e / (e + halfAt): 0.5 at `halfAt`, the same scale on every task. halfAt is
// fitted on the tuning part of the labelled set only (services/catalog/eval/intent/; `npm run
// eval:intent -- --calibrate`): the largest evidence below which at most 2.5 % of its in-scope tasks
// fall, so abstaining below 0.5 keeps false abstention under 3 % with a margin for unseen tasks.

export interface IntentScoring {
  /** How much a word found in each field counts (label and synonyms name the capability best). */
  fieldBoost: Readonly<Record<"label" | "key" | "synonyms" | "examples" | "description" | "fields" | "providers", number>>;
  /** Below this top score the answer abstains. */
  abstainBelow: number;
  /** The evidence (BM25 x coverage^coveragePower) that scores 0.5. */
  halfAt: number;
  /** How steeply a match's evidence falls as it leaves words of the task unmatched. */
  coveragePower: number;
  /** How much each word pair the task shares with one of the capability's phrases multiplies its evidence by (1 + this). */
  pairBoost: number;
  /** How many of the best matches (by words alone) the word pairs re-rank. */
  pairPool: number;
  /** What a fuzzy (typo) match counts of a word. */
  fuzzyCredit: number;
  /** What a generic verb (buy, order, make) weighs in coverage, against 1 for any other word. */
  genericWeight: number;
  /** What a name (a capitalized word past the first: Tokyo, SFO; not a product the catalog lacks) weighs in coverage. */
  nameWeight: number;
  /** Document frequency assumed for a word no capability uses (so it weighs like a rare word, not infinitely). */
  unknownTermDocumentFrequency: number;
}

export const INTENT_SCORING: IntentScoring = {
  fieldBoost: { label: 3, key: 2, synonyms: 3, examples: 1.5, description: 1, fields: 0.4, providers: 0.6 },
  abstainBelow: 0.5,
  halfAt: 20.4,
  coveragePower: 1.5,
  pairBoost: 1,
  pairPool: 10,
  fuzzyCredit: 0.8,
  genericWeight: 0.3,
  nameWeight: 0.25,
  unknownTermDocumentFrequency: 2,
};

/** A match's evidence: BM25 x coverage^coveragePower, times (1 + pairBoost) for each word pair it shares with the task. */
export function evidenceOf(coverage: number, bm25: number, s: IntentScoring, pairs = 0): number {
  return bm25 * coverage ** s.coveragePower * (1 + s.pairBoost * pairs);
}

export function scoreOf(coverage: number, bm25: number, s: IntentScoring, pairs = 0): number {
  const evidence = evidenceOf(coverage, bm25, s, pairs);
  return Math.round((evidence / (evidence + s.halfAt)) * 10_000) / 10_000;
}
