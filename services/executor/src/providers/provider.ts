// What every adapter checks first: that it was asked for a capability it implements. An adapter asked
// for another one was reached by a routing bug; it refuses rather than send the vendor a wrong request.
import { ProviderError, type ProviderAdapter } from "../domain/provider-port";

/** Throws unless the adapter implements the capability. */
export function assertCapability(adapter: Pick<ProviderAdapter, "providerKey" | "capabilityKeys">, capabilityKey: string): void {
  if (!adapter.capabilityKeys.includes(capabilityKey)) {
    throw new ProviderError("unsupported_capability", adapter.providerKey, `${adapter.providerKey} does not implement ${capabilityKey}`);
  }
}
