// Which input fields name a resource the caller must own, as the adapters declare them
// (ProviderAdapter.resourceFields). The registry reads them from every adapter the executor has,
// configured in this deployment or not, so such an input can never slip through to another route.
import type { ProviderAdapter, ResourceField, SenderField } from "../domain/provider-port";

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

/** The lookup of `capabilityKey`'s sender fields (ProviderAdapter.senderFields), one entry per field. */
export function declaredSenderFields(adapters: readonly ProviderAdapter[]): (capabilityKey: string) => SenderField[] {
  const byCapability = new Map<string, Map<string, SenderField>>();
  for (const adapter of adapters)
    for (const [capabilityKey, fields] of Object.entries(adapter.senderFields ?? {})) {
      const known = byCapability.get(capabilityKey) ?? new Map<string, SenderField>();
      for (const f of fields) if (!known.has(f.field)) known.set(f.field, f);
      byCapability.set(capabilityKey, known);
    }
  return (capabilityKey) => [...(byCapability.get(capabilityKey)?.values() ?? [])];
}
