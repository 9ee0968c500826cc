// Each search term's matches in the MiniSearch index, asked of MiniSearch once per term and kept: the
// index never changes once built, and MiniSearch's OR query scores a capability by the sum of its
// terms' scores times the number of terms it matched, so a task only has to add up its terms' kept
// postings. At 100x the catalog a full search allocates a result object per matching capability
// (thousands per task) and sorts them all; adding up typed arrays does neither.
import type MiniSearch from "minisearch";
import type { SearchOptions } from "minisearch";

/** Which catalog terms matched in which fields (MiniSearch's `match` of one result). */
export type FieldMatch = Readonly<Record<string, readonly string[]>>;

/** The capabilities one search term matches, with its score in each. */
export interface Postings {
  readonly docs: Int32Array;
  readonly scores: Float64Array;
  /** What matched, by capability id (read only for the matches an answer shows). */
  readonly matches: ReadonlyMap<number, FieldMatch>;
}

/** Terms kept before the cache is emptied: every term of a large catalog, and typos of many tasks. */
const POSTINGS_MAX = 50_000;

export class TermPostings {
  private readonly cache = new Map<string, Postings>();

  constructor(
    private readonly search: MiniSearch<object>,
    /** The search options of one term (its boosts, its fuzziness). */
    private readonly optionsOf: (term: string) => SearchOptions,
  ) {}

  /** Asks for every term the catalog knows up front, so a task pays a search only for a word the catalog does not know (a typo). */
  warm(terms: Iterable<string>): void {
    for (const term of terms) this.of(term);
  }

  of(term: string): Postings {
    const kept = this.cache.get(term);
    if (kept) return kept;
    // The term is already a search term (stemmed): searched as it is, not tokenized or stemmed again.
    const results = this.search.search(term, { ...this.optionsOf(term), tokenize: () => [term], processTerm: (t) => t });
    const postings: Postings = {
      docs: Int32Array.from(results, (r) => Number(r.id)),
      scores: Float64Array.from(results, (r) => r.score),
      matches: new Map(results.map((r) => [Number(r.id), r.match as FieldMatch])),
    };
    if (this.cache.size >= POSTINGS_MAX) this.cache.clear();
    this.cache.set(term, postings);
    return postings;
  }
}
