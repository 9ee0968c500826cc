// Contract fields that no adapter of a capability implements yet. They are refused with a 400
// rather than silently dropped (a search must not ignore the domains it was told to exclude).
// Remove an entry once the adapters implement the field.

/** Per capability: contract fields no adapter of it implements. */
const UNSUPPORTED: Readonly<Record<string, readonly string[]>> = {
  "search.answer": ["includeDomains", "excludeDomains"],
};

/** The first field of `input` that no adapter of the capability implements, if any. */
export function unsupportedField(capabilityKey: string, input: Readonly<Record<string, unknown>>): string | undefined {
  return (UNSUPPORTED[capabilityKey] ?? []).find((f) => input[f] !== undefined);
}
