// The intent index: every capability of one catalog version in a MiniSearch (BM25+) index over the
// text the catalog owns, searched with stemming and fuzzy matching. A search ranks capabilities,
// turns the ranking into a score in 0..1 that means the same on every task (score.ts), abstains when
// the best score is below the calibrated threshold, explains each match and reads the constraints.
// Deterministic: the same catalog and task always give the same answer, in the same order.
import MiniSearch, { type SearchOptions, type SearchResult } from "minisearch";
import { intentDocumentOf, sharedFieldsOf, TEXT_FIELDS, type IntentDocument, type IntentSource, type IntentTextField } from "./documents";
import { extractConstraints, ProviderNames, withoutConstraintWords, type TaskConstraints } from "./constraints";
import { INTENT_SCORING, scoreOf, type IntentScoring } from "./score";
import { isGenericTerm, nameTermsOf, termOf, termsOf, tokenize, withoutFieldValues, withSwapsFixed } from "./text";

export interface IntentMatch {
  capabilityKey: string;
  domainKey: string;
  capabilityId: string;
  label: string;
  status: string;
  /** 0..1, comparable across tasks; at or above `abstainBelow` means the capability does the task. */
  score: number;
  /** Which of the task's words matched which of the capability's fields. */
  why: string;
  startingPriceCredits: number | null;
  contractPath: string | null;
  recommendPath: string | null;
}

export interface IntentAnswer {
  task: string;
  matches: IntentMatch[];
  /** True when no capability scores at or above the threshold: nothing in the catalog does the task. */
  abstained: boolean;
  constraints: TaskConstraints;
  catalogVersion: string;
}

export interface IntentQuery {
  task: string;
  /** Matches to list, 1..20. */
  limit: number;
  /** Only capabilities of this domain. */
  domainKey?: string;
}

export class IntentIndex {
  private readonly search: MiniSearch<IntentDocument & IntentTextFields>;
  private readonly documents: IntentDocument[];
  private readonly providers: ProviderNames;
  /** Terms of each document (all fields), to tell exact from fuzzy matches. */
  private readonly termsByDoc: Array<Set<string>>;
  /** In how many documents each term appears (its keys: every term the index knows). */
  private readonly documentFrequency = new Map<string, number>();
  private readonly knownTerms: ReadonlySet<string>;

  constructor(
    sources: readonly IntentSource[],
    readonly catalogVersion: string,
    private readonly scoring: IntentScoring = INTENT_SCORING,
  ) {
    const shared = sharedFieldsOf(sources);
    this.documents = sources.map((s, i) => intentDocumentOf(s, i, shared));
    this.providers = new ProviderNames(this.documents.flatMap((d) => d.providers));
    this.termsByDoc = this.documents.map((d) => new Set(TEXT_FIELDS.flatMap((f) => termsOf(d.text[f]))));
    for (const terms of this.termsByDoc) for (const t of terms) this.documentFrequency.set(t, (this.documentFrequency.get(t) ?? 0) + 1);
    this.knownTerms = new Set(this.documentFrequency.keys());
    this.search = new MiniSearch<IntentDocument & IntentTextFields>({
      fields: [...TEXT_FIELDS],
      storeFields: [],
      tokenize,
      processTerm: termOf,
      extractField: (doc, field) => (field === "id" ? String(doc.id) : doc.text[field as IntentTextField]),
    });
    this.search.addAll(this.documents as Array<IntentDocument & IntentTextFields>);
  }

  /** How many capabilities the index holds. */
  get size(): number {
    return this.documents.length;
  }

  query(q: IntentQuery): IntentAnswer {
    const task = q.task.trim();
    const ranked = this.rank(task, q.domainKey, q.limit);
    const top = ranked[0];
    const abstained = !top || top.score < this.scoring.abstainBelow;
    return {
      task,
      matches: ranked.slice(0, q.limit).map(({ doc, result, score }) => toMatch(doc, result, score)),
      abstained,
      constraints: extractConstraints(task, abstained ? undefined : top?.doc, this.providers),
      catalogVersion: this.catalogVersion,
    };
  }

  /**
   * Every capability the words reach (label, key, synonyms, example tasks, description, fields,
   * providers), best first, with no threshold and no limit: a search box over the catalog, where
   * query() answers which capability does a task.
   */
  find(words: string): string[] {
    return this.rank(words.trim(), undefined, this.documents.length).map((r) => r.doc.capabilityKey);
  }

  /** The ranking's raw signals (evidence parts) of the best `n` capabilities, for calibration. */
  signals(task: string, n = 3): Array<{ capabilityKey: string; bm25: number; coverage: number; score: number }> {
    return this.rank(task.trim(), undefined, n)
      .slice(0, n)
      .map((r) => ({ capabilityKey: r.doc.capabilityKey, bm25: r.bm25, coverage: r.coverage, score: r.score }));
  }

  /** Every capability the task's words reach (the best `keep` of them exactly), best first: by score (BM25 x coverage), then BM25, then key. */
  private rank(task: string, domainKey: string | undefined, keep: number): Ranked[] {
    const stripped = withoutFieldValues(withoutConstraintWords(task));
    // Names are read before the typo fix lower-cases the words.
    const names = nameTermsOf(stripped);
    const searched = withSwapsFixed(stripped, this.knownTerms);
    const queryTerms = termsOf(searched);
    if (queryTerms.length === 0) return [];
    // Coverage is at most 1, so a capability's evidence is at most its BM25: in BM25 order (MiniSearch's),
    // the scan stops once no later capability can beat the `keep`-th best evidence (exact, and few
    // coverage computations on a large catalog).
    const ranked: Ranked[] = [];
    const evidences: number[] = [];
    for (const result of this.search.search(searched, this.searchOptions(domainKey))) {
      const bm25 = result.score;
      if (evidences.length >= keep && bm25 < evidences[keep - 1]!) break;
      const doc = this.documents[Number(result.id)]!;
      const coverage = this.coverage(queryTerms, names, result, doc.id);
      ranked.push({ doc, result, bm25, coverage, score: scoreOf(coverage, bm25, this.scoring) });
      evidences.push(bm25 * coverage);
      evidences.sort((a, b) => b - a);
    }
    return ranked.sort((a, b) => b.score - a.score || b.bm25 - a.bm25 || a.doc.capabilityKey.localeCompare(b.doc.capabilityKey));
  }

  private searchOptions(domainKey: string | undefined): SearchOptions {
    const inDomain = (id: number) => this.documents[id]!.domainKey === domainKey;
    return {
      boost: this.scoring.fieldBoost,
      // Typos: a word the catalog does not know (a stem of 4+ letters) matches within one edit, weighted
      // down; a known word matches exactly (fuzzy lookups of known words cost time and add noise).
      fuzzy: (term: string) => (term.length >= 4 && !this.knownTerms.has(term) ? 1 : false),
      weights: { fuzzy: 0.4, prefix: 0.3 },
      prefix: false,
      combineWith: "OR",
      ...(domainKey ? { filter: (r: SearchResult) => inDomain(Number(r.id)) } : {}),
    };
  }

  /**
   * The share of the task's informative words the capability's text holds, each word weighted by
   * how rare it is in the catalog (a word no capability uses weighs most: it names something the
   * catalog does not do). A fuzzy match counts `scoring.fuzzyCredit` of a word.
   */
  private coverage(queryTerms: readonly string[], names: ReadonlySet<string>, result: SearchResult, docId: number): number {
    const n = this.documents.length;
    const terms = this.termsByDoc[docId]!;
    let total = 0;
    let matched = 0;
    for (const term of queryTerms) {
      const df = this.documentFrequency.get(term) ?? 0;
      const rarity = Math.log(1 + n / Math.max(df, this.scoring.unknownTermDocumentFrequency));
      const weight = rarity * (isGenericTerm(term) ? this.scoring.genericWeight : names.has(term) ? this.scoring.nameWeight : 1);
      total += weight;
      if (terms.has(term)) matched += weight;
      else if (result.queryTerms.includes(term)) matched += weight * this.scoring.fuzzyCredit;
    }
    return total === 0 ? 0 : matched / total;
  }
}

type IntentTextFields = Record<IntentTextField, string>;

interface Ranked {
  doc: IntentDocument;
  result: SearchResult;
  bm25: number;
  coverage: number;
  score: number;
}

function toMatch(doc: IntentDocument, result: SearchResult, score: number): IntentMatch {
  return {
    capabilityKey: doc.capabilityKey,
    domainKey: doc.domainKey,
    capabilityId: doc.capabilityId,
    label: doc.label,
    status: doc.status,
    score,
    why: whyOf(result),
    startingPriceCredits: doc.startingPriceCredits ?? null,
    contractPath: doc.contractPath ?? null,
    recommendPath: doc.recommendPath ?? null,
  };
}

/** "matched email (label, synonyms), send (examples)": each matched catalog word with the fields that hold it. */
function whyOf(result: SearchResult): string {
  const parts = Object.keys(result.match)
    .sort()
    .map((term) => `${term} (${[...result.match[term]!].sort(byFieldOrder).join(", ")})`);
  return `matched ${parts.join(", ")}`;
}

function byFieldOrder(a: string, b: string): number {
  return TEXT_FIELDS.indexOf(a as IntentTextField) - TEXT_FIELDS.indexOf(b as IntentTextField);
}
