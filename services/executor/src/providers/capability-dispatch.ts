// One vendor, several adapters: a provider key has one adapter in the registry, so a vendor whose
// capabilities are spoken by different adapters (OpenAI: chat, embeddings, moderation) is registered
// as this adapter, which hands each capability to the adapter that implements it.
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import {
  ProviderError,
  type CapabilityInput,
  type ProviderAdapter,
  type ProviderContext,
  type ProviderFlow,
  type ProviderResult,
} from "../domain/provider-port";

export class CapabilityDispatchAdapter implements ProviderAdapter {
  readonly capabilityKeys: readonly string[];
  readonly resourceFields: Readonly<Record<string, Readonly<Record<string, string>>>>;
  /** Each adapter's multi-request flows, by capability: a capability keeps its flow whichever adapter serves it. */
  readonly flows: Readonly<Record<string, ProviderFlow>>;

  constructor(
    readonly providerKey: string,
    private readonly adapters: readonly ProviderAdapter[],
  ) {
    this.capabilityKeys = adapters.flatMap((a) => a.capabilityKeys);
    if (new Set(this.capabilityKeys).size !== this.capabilityKeys.length)
      throw new Error(`${providerKey}: two adapters implement the same capability`);
    this.resourceFields = Object.assign({}, ...adapters.map((a) => a.resourceFields ?? {}));
    this.flows = Object.assign({}, ...adapters.map((a) => a.flows ?? {}));
  }

  private adapterFor(capabilityKey: string): ProviderAdapter {
    const adapter = this.adapters.find((a) => a.capabilityKeys.includes(capabilityKey));
    if (!adapter)
      throw new ProviderError("unsupported_capability", this.providerKey, `${this.providerKey} does not implement ${capabilityKey}`);
    return adapter;
  }

  buildRequest(capabilityKey: string, input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
    return this.adapterFor(capabilityKey).buildRequest(capabilityKey, input, ctx);
  }

  parseResponse(capabilityKey: string, res: RailResponse, input: CapabilityInput): ProviderResult {
    return this.adapterFor(capabilityKey).parseResponse(capabilityKey, res, input);
  }
}
