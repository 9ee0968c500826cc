// The score of a match, 0..1, and the threshold below which the index abstains. Evidence is the match's
// BM25 (how strongly its text matches the task's words, rare words counting most) times its coverage
// (the share of the task's informative words it holds, 0..1, so a task mostly about something else
// scores low however well one word matches). The score maps evidence e to e / (e + halfAt): 0.5 at
// `halfAt`, the same scale on every task. The constants are calibrated on the labelled evaluation set
// (services/catalog/eval/intent/; `npm run eval:intent`): halfAt is the evidence below which at most
// 3 % of in-scope tasks fall (swept 11-13.5: 13 abstains on the most out-of-scope tasks at 2.9 % false
// abstention), so abstaining below 0.5 keeps false abstention under 3 %.

export interface IntentScoring {
  /** How much a word found in each field counts (label and synonyms name the capability best). */
  fieldBoost: Readonly<Record<"label" | "key" | "synonyms" | "examples" | "description" | "fields" | "providers", number>>;
  /** Below this top score the answer abstains. */
  abstainBelow: number;
  /** The evidence (BM25 x coverage^coveragePower) that scores 0.5. */
  halfAt: number;
  /** How steeply a match's evidence falls as it leaves words of the task unmatched. */
  coveragePower: number;
  /** What a fuzzy (typo) match counts of a word. */
  fuzzyCredit: number;
  /** What a generic verb (buy, order, make) weighs in coverage, against 1 for any other word. */
  genericWeight: number;
  /** What a name (a capitalized word past the first: Tokyo, Maria) weighs in coverage. */
  nameWeight: number;
  /** Document frequency assumed for a word no capability uses (so it weighs like a rare word, not infinitely). */
  unknownTermDocumentFrequency: number;
}

export const INTENT_SCORING: IntentScoring = {
  fieldBoost: { label: 3, key: 2, synonyms: 2, examples: 1.5, description: 1, fields: 0.4, providers: 0.6 },
  abstainBelow: 0.5,
  halfAt: 13,
  coveragePower: 1,
  fuzzyCredit: 0.8,
  genericWeight: 0.3,
  nameWeight: 0.25,
  unknownTermDocumentFrequency: 2,
};

export function scoreOf(coverage: number, bm25: number, s: IntentScoring): number {
  const evidence = bm25 * coverage ** s.coveragePower;
  return Math.round((evidence / (evidence + s.halfAt)) * 10_000) / 10_000;
}
