// Which input fields name a resource the caller must own, read from every adapter the executor has
// (configured in this deployment or not): a field is checked for ownership even when the provider
// that uses it is not configured here, so such an input can never slip through to another route.
import { ADAPTER_FACTORIES } from "./registry";

/** One declared field: its kind, and the provider whose routes can use it. */
export interface ResourceField {
  field: string;
  kind: string;
  providerKey: string;
}

const DECLARED: readonly (ResourceField & { capabilityKey: string })[] = Object.values(ADAPTER_FACTORIES).flatMap((factory) => {
  const adapter = factory({});
  return Object.entries(adapter.resourceFields ?? {}).flatMap(([capabilityKey, fields]) =>
    Object.entries(fields).map(([field, kind]) => ({ capabilityKey, field, kind, providerKey: adapter.providerKey })),
  );
});

/** The fields of `capabilityKey`'s input that name owned resources, each with every provider that uses it. */
export function resourceFieldsOf(capabilityKey: string): ResourceField[] {
  return DECLARED.filter((d) => d.capabilityKey === capabilityKey).map(({ field, kind, providerKey }) => ({ field, kind, providerKey }));
}
