// What the index reads of one capability: the catalog's own text (label, description, example tasks,
// synonyms, contract field names and notes, provider names) and what a match shows (price, paths).
// The shapes are structural subsets of the catalog's messages, so the router's cached catalog entries
// and the catalog service's own derived capabilities can both be passed as they are.

/**
 * Capability statuses intent routing (IntentIndex.query) ranks: those with a route to recommend (a planned one has
 * none yet). The index holds every status; the search box (IntentIndex.find) reaches them all.
 */
export const INTENT_ROUTABLE_STATUSES: ReadonlySet<string> = new Set(["live", "recommend_only"]);

/** One input field of a capability's execute contract, as far as search and constraints read it. */
export interface IntentField {
  name: string;
  type: string;
  required?: boolean;
  format?: string | undefined;
  enumValues?: readonly string[];
  notes?: readonly string[];
}

/** What constraints read of an execute field (constraints.ts): its name, type, format and whether it is required. */
export type ConstraintField = Pick<IntentField, "name" | "type" | "required" | "format">;

/** A capability as the catalog describes it (a subset of the catalog's Capability message). */
export interface IntentCapability {
  capabilityKey: string;
  capabilityId: string;
  domainKey: string;
  label: string;
  description: string;
  status: string;
  startingPriceCredits?: number | undefined;
  recommendEndpoint?: string | undefined;
  contractEndpoint?: string | undefined;
  /** Tasks as an agent would write them, chosen by the catalog author. */
  exampleTasks?: readonly string[];
  /** Other words for what the capability does ("mail", "e-mail"). */
  synonyms?: readonly string[];
}

/** One capability with the parts of its routes and contract the index reads. */
export interface IntentSource {
  capability: IntentCapability;
  routes: ReadonlyArray<{ providerKey: string; providerLabel: string }>;
  execute?: { fields: readonly IntentField[] } | undefined;
}

/** The flattened, searchable form of one capability. */
export interface IntentDocument {
  id: number;
  capabilityKey: string;
  domainKey: string;
  capabilityId: string;
  label: string;
  status: string;
  startingPriceCredits: number | undefined;
  contractPath: string | undefined;
  recommendPath: string | undefined;
  /** The catalog's own phrases for the capability (label, each synonym, each example task), for word pairs. */
  phrases: readonly string[];
  /** Searchable text per field of the index. */
  text: Record<IntentTextField, string>;
  /**
   * Every execute field, as constraints read it (the shared ones are left out of the searchable text).
   * Notes and enum values are searched, not kept: at 100x today's catalog they were most of 24 MB.
   */
  fields: readonly ConstraintField[];
  /** Provider keys and labels of the capability's routes. */
  providers: ReadonlyArray<{ key: string; label: string }>;
}

/** The text fields of the index, each with its weight in ranking (see intent-index.ts). */
export const TEXT_FIELDS = ["label", "key", "synonyms", "examples", "description", "fields", "providers"] as const;
export type IntentTextField = (typeof TEXT_FIELDS)[number];

/**
 * Execute fields most contracts share (the routing controls the catalog adds to every contract:
 * provider, routeKey, recommendationId, quoteId, ...): their names and notes say nothing about what a
 * capability does, and indexed everywhere they would make "quote", "post" or "price" match everything.
 */
export function sharedFieldsOf(sources: readonly IntentSource[]): Set<string> {
  const counts = new Map<string, number>();
  for (const s of sources)
    for (const name of new Set((s.execute?.fields ?? []).map((f) => f.name))) counts.set(name, (counts.get(name) ?? 0) + 1);
  const most = Math.max(2, sources.length / 2);
  return new Set([...counts].filter(([, n]) => n > most).map(([name]) => name));
}

/**
 * `sameField`: one object for equal field descriptions (every contract repeats the routing controls,
 * such as provider and quoteId); by default each document keeps its own.
 */
export function intentDocumentOf(
  source: IntentSource,
  id: number,
  sharedFields: ReadonlySet<string> = new Set(),
  sameField: (field: ConstraintField) => ConstraintField = (field) => field,
): IntentDocument {
  const { capability: c } = source;
  const fields = source.execute?.fields ?? [];
  const ownFields = fields.filter((f) => !sharedFields.has(f.name));
  const providers = uniqueBy(
    source.routes.map((r) => ({ key: r.providerKey, label: r.providerLabel })),
    (p) => p.key,
  );
  return {
    id,
    capabilityKey: c.capabilityKey,
    domainKey: c.domainKey,
    capabilityId: c.capabilityId,
    label: c.label,
    status: c.status,
    startingPriceCredits: c.startingPriceCredits,
    contractPath: c.contractEndpoint,
    recommendPath: c.recommendEndpoint,
    phrases: [c.label, ...(c.synonyms ?? []), ...(c.exampleTasks ?? [])],
    text: {
      label: c.label,
      key: c.capabilityKey.split(".").join(" "),
      synonyms: (c.synonyms ?? []).join(" . "),
      examples: (c.exampleTasks ?? []).join(" . "),
      description: c.description,
      fields: ownFields.map((f) => [f.name, ...(f.notes ?? [])].join(" ")).join(" . "),
      providers: providers.map((p) => `${p.key} ${p.label}`).join(" . "),
    },
    fields: fields.map(({ name, type, required, format }) =>
      sameField({ name, type, ...(required !== undefined ? { required } : {}), ...(format !== undefined ? { format } : {}) }),
    ),
    providers,
  };
}

/** One object per distinct field description, for the documents of one index. */
export function fieldInterner(): (field: ConstraintField) => ConstraintField {
  const kept = new Map<string, ConstraintField>();
  return (field) => {
    const key = JSON.stringify([field.name, field.type, field.required, field.format]);
    const found = kept.get(key);
    if (found) return found;
    kept.set(key, field);
    return field;
  };
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => !seen.has(key(item)) && seen.add(key(item)));
}
