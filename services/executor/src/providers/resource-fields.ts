// Which input fields name a resource the caller must own, as the adapters declare them
// (ProviderAdapter.resourceFields). The registry reads them from every adapter the executor has,
// configured in this deployment or not, so such an input can never slip through to another route.
import type { ProviderAdapter, ResourceField } from "../domain/provider-port";

/** The lookup of `capabilityKey`'s owned-resource fields, each with every provider that uses it. */
export function declaredResourceFields(adapters: readonly ProviderAdapter[]): (capabilityKey: string) => ResourceField[] {
  const declared = adapters.flatMap((adapter) =>
    Object.entries(adapter.resourceFields ?? {}).flatMap(([capabilityKey, fields]) =>
      Object.entries(fields).map(([field, kind]) => ({ capabilityKey, field, kind, providerKey: adapter.providerKey })),
    ),
  );
  return (capabilityKey) =>
    declared.filter((d) => d.capabilityKey === capabilityKey).map(({ field, kind, providerKey }) => ({ field, kind, providerKey }));
}
