// Each search term's matches in the MiniSearch index, asked of MiniSearch once per term and kept: the
// index never changes once built, and MiniSearch's OR query scores a capability by the sum of its
// terms' scores times the number of terms it matched, so a task only has to add up its terms' kept
// postings. At 100x the catalog a full search allocates a result object per matching capability
// (thousands per task) and sorts them all; adding up typed arrays does neither.
// What matched where is kept compactly: a term searched exactly (every term the catalog knows) matches
// only itself, so each capability keeps the number of its list of fields, the lists kept once each.
// (Kept as MiniSearch's objects, one per term and capability, they were half the index's memory: 46 of
// 87 MB at 100x today's catalog.) A typo's fuzzy matches, which may name other terms, are kept whole.
import type MiniSearch from "minisearch";
import type { SearchOptions } from "minisearch";

/** Which catalog terms matched in which fields (MiniSearch's `match` of one result). */
export type FieldMatch = Readonly<Record<string, readonly string[]>>;

/** The capabilities one search term matches, with its score in each. */
export interface Postings {
  readonly docs: Int32Array;
  readonly scores: Float64Array;
}

/** What matched, per entry of the postings: the term itself in a list of fields, or a typo's whole match. */
type KeptMatches = { readonly fieldLists: Uint16Array } | { readonly byDoc: ReadonlyMap<number, FieldMatch> };

type KeptPostings = Postings & { readonly matched: KeptMatches };

/** Terms kept before the cache is emptied: every term of a large catalog, and typos of many tasks. */
const POSTINGS_MAX = 50_000;

export class TermPostings {
  private readonly cache = new Map<string, KeptPostings>();
  /** Every distinct list of fields a term matched in (a few dozen), by its number. */
  private readonly fieldLists: Array<readonly string[]> = [];
  private readonly fieldListIds = new Map<string, number>();

  constructor(
    private readonly search: MiniSearch<object>,
    /** The search options of one term (its boosts, its fuzziness). */
    private readonly optionsOf: (term: string) => SearchOptions,
  ) {}

  /** Asks for every term the catalog knows up front, so a task pays a search only for a word the catalog does not know (a typo). */
  warm(terms: Iterable<string>): void {
    for (const term of terms) this.kept(term);
  }

  of(term: string): Postings {
    return this.kept(term);
  }

  /** What of the catalog matched `term` in the capability `docId` (nothing when it did not match). */
  matchOf(term: string, docId: number): FieldMatch | undefined {
    const { docs, matched } = this.kept(term);
    if ("byDoc" in matched) return matched.byDoc.get(docId);
    const at = docs.indexOf(docId);
    return at < 0 ? undefined : { [term]: this.fieldLists[matched.fieldLists[at]!]! };
  }

  private kept(term: string): KeptPostings {
    const found = this.cache.get(term);
    if (found) return found;
    // The term is already a search term (stemmed): searched as it is, not tokenized or stemmed again.
    const results = this.search.search(term, { ...this.optionsOf(term), tokenize: () => [term], processTerm: (t) => t });
    const onlyItself = results.every((r) => r.terms.length === 1 && r.terms[0] === term);
    const postings: KeptPostings = {
      docs: Int32Array.from(results, (r) => Number(r.id)),
      scores: Float64Array.from(results, (r) => r.score),
      matched: onlyItself
        ? { fieldLists: Uint16Array.from(results, (r) => this.fieldListId((r.match as FieldMatch)[term]!)) }
        : { byDoc: new Map(results.map((r) => [Number(r.id), r.match as FieldMatch])) },
    };
    if (this.cache.size >= POSTINGS_MAX) this.cache.clear();
    this.cache.set(term, postings);
    return postings;
  }

  private fieldListId(fields: readonly string[]): number {
    const key = fields.join("\u0000");
    let id = this.fieldListIds.get(key);
    if (id === undefined) {
      id = this.fieldLists.push(fields) - 1;
      this.fieldListIds.set(key, id);
    }
    return id;
  }
}
