// The intent index: every capability of one catalog version in a MiniSearch (BM25+) index over the
// text the catalog owns, searched with stemming and fuzzy matching. A search ranks capabilities,
// turns the ranking into a score in 0..1 that means the same on every task (score.ts), abstains when
// the best score is below the calibrated threshold, explains each match and reads the constraints.
// One index serves both questions: query() (which capability does a task) ranks only the capabilities
// with a route to recommend (INTENT_ROUTABLE_STATUSES); find() (the catalog's search box) every status.
// Deterministic: the same catalog and task always give the same answer, in the same order.
import MiniSearch, { type SearchOptions } from "minisearch";
import {
  INTENT_ROUTABLE_STATUSES,
  fieldInterner,
  intentDocumentOf,
  sharedFieldsOf,
  TEXT_FIELDS,
  type IntentDocument,
  type IntentSource,
  type IntentTextField,
} from "./documents";
import { extractConstraints, ProviderNames, withoutConstraintWords, type TaskConstraints } from "./constraints";
import { evidenceOf, INTENT_SCORING, scoreOf, type IntentScoring } from "./score";
import { TermPostings, type FieldMatch } from "./term-postings";
import {
  isGenericTerm,
  nameTermsOf,
  payloadTermsOf,
  productNameTermsOf,
  termOf,
  termPairsOf,
  termsOf,
  tokenize,
  withoutFieldValues,
  withSwapsFixed,
} from "./text";

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

/** Which capabilities a ranking considers. */
interface RankFilter {
  /** Only those with a route to recommend (intent routing); otherwise every status (the search box). */
  routableOnly: boolean;
  domainKey?: string | undefined;
}

export class IntentIndex {
  private readonly search: MiniSearch<IntentDocument & IntentTextFields>;
  /** What a query reads of each capability (its text and phrases are read only while the index is built). */
  private readonly documents: IndexedDocument[];
  /** 1 for a document whose status intent routing finds (INTENT_ROUTABLE_STATUSES), by document id. */
  private readonly routable: Uint8Array;
  private readonly providers: ProviderNames;
  /** In how many documents each term appears (its keys: every term the index knows). */
  private readonly documentFrequency = new Map<string, number>();
  private readonly knownTerms: ReadonlySet<string>;
  /** Every word pair of the catalog's phrases, by its number. */
  private readonly pairIds = new Map<string, number>();
  /** The word pairs of each document's phrases (label, synonyms, examples), as sorted pair numbers. */
  private readonly pairsByDoc: Int32Array[];
  private readonly postings: TermPostings;
  /** Per-capability sums of one query, reset after each (queries run one at a time: no allocation per capability). */
  private readonly scratch: { bm25: Float64Array; termsMatched: Uint16Array; weightMatched: Float64Array; touched: Int32Array };

  /**
   * `build.collectGarbage`, when given, is called between the build's phases (a full collection, such as
   * `gc` with --expose-gc): what a phase no longer needs is collected before the next allocates, so the
   * heap does not grow by the whole build's garbage at once. At 100x today's catalog that growth was
   * about 85 MB, which Node keeps as RSS; collected between phases, about 50 MB.
   */
  constructor(
    sources: readonly IntentSource[],
    readonly catalogVersion: string,
    private readonly scoring: IntentScoring = INTENT_SCORING,
    build: { collectGarbage?: () => void } = {},
  ) {
    const betweenPhases = build.collectGarbage ?? (() => undefined);
    const shared = sharedFieldsOf(sources);
    const sameField = fieldInterner();
    const documents = sources.map((s, i) => intentDocumentOf(s, i, shared, sameField));
    this.routable = Uint8Array.from(documents, (d) => (INTENT_ROUTABLE_STATUSES.has(d.status) ? 1 : 0));
    this.providers = new ProviderNames(documents.flatMap((d) => d.providers));
    // Each document's distinct terms (all fields), counted once per document; one document's set at a time
    // (all of them at once, at 100x today's catalog, were 26 MB that outlived the young generation).
    for (const d of documents)
      for (const t of new Set(TEXT_FIELDS.flatMap((f) => termsOf(d.text[f]))))
        this.documentFrequency.set(t, (this.documentFrequency.get(t) ?? 0) + 1);
    this.knownTerms = new Set(this.documentFrequency.keys());
    betweenPhases();
    // A large catalog repeats its word pairs across capabilities (100 copies share most): numbers, not strings per document.
    this.pairsByDoc = documents.map((d) => {
      const ids = new Set<number>();
      for (const pair of d.phrases.flatMap(termPairsOf)) {
        let id = this.pairIds.get(pair);
        if (id === undefined) this.pairIds.set(pair, (id = this.pairIds.size));
        ids.add(id);
      }
      return Int32Array.from(ids).sort();
    });
    this.search = new MiniSearch<IntentDocument & IntentTextFields>({
      fields: [...TEXT_FIELDS],
      storeFields: [],
      tokenize,
      processTerm: termOf,
      extractField: (doc, field) => (field === "id" ? String(doc.id) : doc.text[field as IntentTextField]),
    });
    this.search.addAll(documents as Array<IntentDocument & IntentTextFields>);
    betweenPhases();
    this.documents = documents.map(({ text: _text, phrases: _phrases, ...read }) => read);
    this.postings = new TermPostings(this.search as MiniSearch<object>, (term) => this.termSearchOptions(term));
    this.postings.warm(this.knownTerms);
    betweenPhases();
    const n = this.documents.length;
    this.scratch = {
      bm25: new Float64Array(n),
      termsMatched: new Uint16Array(n),
      weightMatched: new Float64Array(n),
      touched: new Int32Array(n),
    };
  }

  /** How many capabilities the index holds. */
  get size(): number {
    return this.documents.length;
  }

  query(q: IntentQuery): IntentAnswer {
    const task = q.task.trim();
    const { ranked, queryTerms } = this.rank(task, { routableOnly: true, domainKey: q.domainKey }, q.limit);
    const top = ranked[0];
    const abstained = !top || top.score < this.scoring.abstainBelow;
    return {
      task,
      matches: ranked.slice(0, q.limit).map((r) => toMatch(r.doc, this.matchOf(r.doc.id, queryTerms), r.score)),
      abstained,
      constraints: extractConstraints(task, abstained ? undefined : top?.doc, this.providers),
      catalogVersion: this.catalogVersion,
    };
  }

  /**
   * Every capability the words reach (label, key, synonyms, example tasks, description, fields,
   * providers), of any status, best first, with no threshold and no limit: a search box over the
   * catalog, where query() answers which capability does a task.
   */
  find(words: string): string[] {
    return this.rank(words.trim(), { routableOnly: false }, this.documents.length).ranked.map((r) => r.doc.capabilityKey);
  }

  /** The ranking's raw signals (evidence parts) of the best `n` capabilities query() considers, for calibration. */
  signals(
    task: string,
    n = 3,
  ): Array<{ capabilityKey: string; bm25: number; coverage: number; pairs: number; evidence: number; score: number }> {
    return this.rank(task.trim(), { routableOnly: true }, n)
      .ranked.slice(0, n)
      .map((r) => ({
        capabilityKey: r.doc.capabilityKey,
        bm25: r.bm25,
        coverage: r.coverage,
        pairs: r.pairs,
        evidence: evidenceOf(r.coverage, r.bm25, this.scoring, r.pairs),
        score: r.score,
      }));
  }

  /**
   * The best `keep` capabilities the task's words reach, best first: by score (BM25 x coverage), then BM25,
   * then key. BM25 is MiniSearch's (the sum of the task's terms' scores times how many of them matched),
   * added up from each term's kept postings.
   */
  private rank(task: string, filter: RankFilter, keep: number): { ranked: Ranked[]; queryTerms: string[] } {
    const stripped = withoutFieldValues(withoutConstraintWords(task));
    // Names (and a payload after "instruction:") are read before the typo fix lower-cases the words and drops the colon.
    // A product the catalog has no word for is what the task needs, not what it is about: it weighs in full.
    const products = productNameTermsOf(stripped, this.knownTerms);
    const names = new Set([...nameTermsOf(stripped), ...payloadTermsOf(stripped)].filter((t) => !products.has(t)));
    const searched = withSwapsFixed(stripped, this.knownTerms);
    const queryTerms = termsOf(searched);
    if (queryTerms.length === 0) return { ranked: [], queryTerms };
    const { bm25, termsMatched, weightMatched, touched } = this.scratch;
    const { routableOnly, domainKey } = filter;
    let touchedCount = 0;
    let totalWeight = 0;
    for (const term of queryTerms) {
      const weight = this.weightOf(term, names);
      totalWeight += weight;
      // A known word matches exactly; a word no capability uses only by a typo, for part of its weight.
      const credit = weight * (this.knownTerms.has(term) ? 1 : this.scoring.fuzzyCredit);
      const { docs, scores } = this.postings.of(term);
      for (let j = 0; j < docs.length; j++) {
        const d = docs[j]!;
        if (routableOnly && this.routable[d] === 0) continue;
        if (domainKey !== undefined && this.documents[d]!.domainKey !== domainKey) continue;
        if (termsMatched[d] === 0) touched[touchedCount++] = d;
        bm25[d] += scores[j]!;
        termsMatched[d]++;
        weightMatched[d] += credit;
      }
    }
    const kept: Ranked[] = [];
    // Words first: the best `pool` by words alone, then re-ranked by the word pairs they share with the task.
    const pool = Math.max(keep, this.scoring.pairPool);
    // Keeping every capability (a search box's listing): one sort at the end, not an insertion each.
    const everything = pool >= touchedCount;
    for (let i = 0; i < touchedCount; i++) {
      const d = touched[i]!;
      const docBm25 = bm25[d]! * termsMatched[d]!;
      const coverage = totalWeight === 0 ? 0 : weightMatched[d]! / totalWeight;
      bm25[d] = 0;
      termsMatched[d] = 0;
      weightMatched[d] = 0;
      const score = scoreOf(coverage, docBm25, this.scoring);
      const doc = this.documents[d]!;
      if (everything) {
        kept.push({ doc, bm25: docBm25, coverage, pairs: 0, score });
        continue;
      }
      // Bounded insertion: `kept` stays sorted and at most `pool` long; a capability that cannot enter costs no allocation.
      if (kept.length >= pool && compareRank(score, docBm25, doc.capabilityKey, kept[pool - 1]!) >= 0) continue;
      let at = kept.length;
      while (at > 0 && compareRank(score, docBm25, doc.capabilityKey, kept[at - 1]!) < 0) at--;
      kept.splice(at, 0, { doc, bm25: docBm25, coverage, pairs: 0, score });
      if (kept.length > pool) kept.pop();
    }
    const taskPairs = termPairsOf(searched);
    if (taskPairs.length > 0) {
      const taskPairIds = taskPairs.map((pair) => this.pairIds.get(pair) ?? -1);
      for (const r of kept) {
        const pairs = this.pairsByDoc[r.doc.id]!;
        let shared = 0;
        for (const id of taskPairIds) if (id >= 0 && holds(pairs, id)) shared++;
        r.pairs = shared;
        if (shared > 0) r.score = scoreOf(r.coverage, r.bm25, this.scoring, shared);
      }
    }
    kept.sort((a, b) => compareRank(a.score, a.bm25, a.doc.capabilityKey, b));
    if (kept.length > keep) kept.length = keep;
    return { ranked: kept, queryTerms };
  }

  /** What of the task matched in one capability: each catalog term with the fields that hold it. */
  private matchOf(docId: number, queryTerms: readonly string[]): FieldMatch {
    const match: Record<string, string[]> = {};
    for (const term of queryTerms) {
      for (const [catalogTerm, fields] of Object.entries(this.postings.matchOf(term, docId) ?? {})) {
        match[catalogTerm] = [...new Set([...(match[catalogTerm] ?? []), ...fields])];
      }
    }
    return match;
  }

  /** How one term is searched: field boosts, and typos for a word the catalog does not know. */
  private termSearchOptions(term: string): SearchOptions {
    return {
      boost: this.scoring.fieldBoost,
      // Typos: a word the catalog does not know (a stem of 4+ letters) matches within one edit, weighted
      // down; a known word matches exactly (fuzzy lookups of known words cost time and add noise).
      fuzzy: term.length >= 4 && !this.knownTerms.has(term) ? 1 : false,
      weights: { fuzzy: 0.4, prefix: 0.3 },
      prefix: false,
    };
  }

  /**
   * What a task word weighs in coverage: how rare it is in the catalog (a word no capability uses weighs
   * most: it names something the catalog does not do), less for a generic verb or a name (a place, a code).
   */
  private weightOf(term: string, names: ReadonlySet<string>): number {
    const df = this.documentFrequency.get(term) ?? 0;
    const rarity = Math.log(1 + this.documents.length / Math.max(df, this.scoring.unknownTermDocumentFrequency));
    return rarity * (isGenericTerm(term) ? this.scoring.genericWeight : names.has(term) ? this.scoring.nameWeight : 1);
  }
}

type IntentTextFields = Record<IntentTextField, string>;

/** A document as queries read it: without its text and phrases, which only building the index reads. */
type IndexedDocument = Omit<IntentDocument, "text" | "phrases">;

/** Whether the sorted `ids` hold `id`. */
function holds(ids: Int32Array, id: number): boolean {
  let low = 0;
  let high = ids.length - 1;
  while (low <= high) {
    const mid = (low + high) >>> 1;
    const at = ids[mid]!;
    if (at === id) return true;
    if (at < id) low = mid + 1;
    else high = mid - 1;
  }
  return false;
}

interface Ranked {
  doc: IndexedDocument;
  bm25: number;
  coverage: number;
  /** Word pairs the task shares with the capability's phrases. */
  pairs: number;
  score: number;
}

/** Negative when a capability with these signals ranks before `b`: by score, then BM25, then key (a total order, so answers are deterministic). */
function compareRank(score: number, bm25: number, key: string, b: Ranked): number {
  return b.score - score || b.bm25 - bm25 || (key < b.doc.capabilityKey ? -1 : key > b.doc.capabilityKey ? 1 : 0);
}

function toMatch(doc: IndexedDocument, match: FieldMatch, score: number): IntentMatch {
  return {
    capabilityKey: doc.capabilityKey,
    domainKey: doc.domainKey,
    capabilityId: doc.capabilityId,
    label: doc.label,
    status: doc.status,
    score,
    why: whyOf(match),
    startingPriceCredits: doc.startingPriceCredits ?? null,
    contractPath: doc.contractPath ?? null,
    recommendPath: doc.recommendPath ?? null,
  };
}

/** "matched email (label, synonyms), send (examples)": each matched catalog word with the fields that hold it. */
function whyOf(match: FieldMatch): string {
  const parts = Object.keys(match)
    .sort()
    .map((term) => `${term} (${[...match[term]!].sort(byFieldOrder).join(", ")})`);
  return `matched ${parts.join(", ")}`;
}

function byFieldOrder(a: string, b: string): number {
  return TEXT_FIELDS.indexOf(a as IntentTextField) - TEXT_FIELDS.indexOf(b as IntentTextField);
}
