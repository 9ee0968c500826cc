// Key derivation: the one place that says how capability ids, capability keys, product keys and
// route keys are built from the data, so validation and derivation can never disagree.
import type { NetworkKey } from "./schema";

/** "time.current" -> "time-current" (the capability's path segment). */
export function capabilityIdOf(capabilityParts: string): string {
  return capabilityParts.split(".").join("-");
}

/** ("geo", "time.current") -> "geo.time.current". */
export function capabilityKeyOf(domainKey: string, capabilityParts: string): string {
  return `${domainKey}.${capabilityParts}`;
}

/** ("geo", "time-current") -> "geo.time-current" (used by the wallet's product list). */
export function productKeyOf(domainKey: string, capabilityId: string): string {
  return `${domainKey}.${capabilityId}`;
}

/**
 * Route key: "<capabilityKey>.<providerKey>" for direct routes (our own vendor key),
 * "<capabilityKey>.<providerKey>.<networkKey>" for every other network.
 */
export function routeKeyOf(capabilityKey: string, providerKey: string, networkKey: NetworkKey): string {
  return networkKey === "direct" ? `${capabilityKey}.${providerKey}` : `${capabilityKey}.${providerKey}.${networkKey}`;
}
