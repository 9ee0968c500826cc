// A provider as a table: its key, its documented hosts, and per capability the plain functions that
// speak to the vendor (build the request, parse the answer, or run a multi-request flow) with the
// input fields the executor checks first. The adapter the domain calls (ProviderAdapter) is made here,
// once for every provider: it checks that a capability is in the table and hands it to its entry, so
// no handler branches on the capability or checks it again.
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import {
  ProviderError,
  type ApprovalRule,
  type CapabilityInput,
  type ProviderAdapter,
  type ProviderContext,
  type ProviderFlow,
  type ProviderResult,
  type SenderField,
} from "../domain/provider-port";
import type { ProviderModule } from "./provider-module";

/** How one capability is spoken to one vendor: one request and its answer, or a flow of several. */
export type CapabilityHandler = CallHandler | FlowHandler;

interface HandlerBase {
  /** The vendor request for an input; throws ProviderError (`invalid_input`) for one the vendor cannot take. */
  request(input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest;
  /** Input fields naming a resource the caller must own, with its kind: `{ inboxId: "email.inbox" }`. */
  resourceFields?: Readonly<Record<string, string>>;
  /** Input fields a message goes out as or is answered to (ProviderAdapter.senderFields). */
  senderFields?: readonly SenderField[];
}

/** One vendor request per call. */
export interface CallHandler extends HandlerBase {
  /** The normalized result of the vendor's answer to that request (same input); throws ProviderError. */
  parse(res: RailResponse, input: CapabilityInput): ProviderResult;
  flow?: undefined;
}

/**
 * A call of several vendor requests (a token first, a job to poll): the flow runs in place of sending
 * `request`'s request and parsing it; `request` still checks the input when the route is planned and
 * names the main request.
 */
export interface FlowHandler extends HandlerBase {
  flow: ProviderFlow;
  parse?: undefined;
}

/** A provider's capabilities, by capability key. */
export type CapabilityTable = Readonly<Record<string, CapabilityHandler>>;

/** Account settings of a provider (ProviderContext.settings), as read from the environment. */
export type ProviderSettingsMap = Readonly<Record<string, string>>;

export interface ProviderDefinition extends Omit<ProviderModule, "providerKey" | "create"> {
  /** The catalog's providerKey, e.g. `exa`. */
  readonly key: string;
  /** The table; a function when handlers depend on the provider's account settings (read once, at startup). */
  readonly capabilities: CapabilityTable | ((settings: ProviderSettingsMap) => CapabilityTable);
  /** Approvals its capabilities issue and require (ProviderAdapter.approvals). */
  approvals?(settings: ProviderSettingsMap): readonly ApprovalRule[];
}

/** A provider defined as a table, registrable as a ProviderModule. */
export type TableProvider = ProviderDefinition & ProviderModule;

/** Declares a provider: one table, registered with one line in all-providers.ts. */
export function defineProvider(definition: ProviderDefinition): TableProvider {
  return { ...definition, providerKey: definition.key, create: (settings) => providerAdapter(definition, settings) };
}

/** The adapter of a table provider with its account settings: the one place a capability is checked and dispatched. */
export function providerAdapter(definition: ProviderDefinition, settings: ProviderSettingsMap = {}): ProviderAdapter {
  const providerKey = definition.key;
  const table = typeof definition.capabilities === "function" ? definition.capabilities(settings) : definition.capabilities;
  const entries = Object.entries(table);
  const handlerOf = (capabilityKey: string): CapabilityHandler => {
    assertCapability({ providerKey, capabilityKeys: Object.keys(table) }, capabilityKey);
    return table[capabilityKey] as CapabilityHandler;
  };
  const declared = <T>(pick: (h: CapabilityHandler) => T | undefined): Record<string, T> | undefined => {
    const found = entries.flatMap(([capabilityKey, h]) => {
      const value = pick(h);
      return value === undefined ? [] : [[capabilityKey, value] as const];
    });
    return found.length ? Object.fromEntries(found) : undefined;
  };
  const resourceFields = declared((h) => h.resourceFields);
  const senderFields = declared((h) => h.senderFields);
  const flows = declared((h) => h.flow);
  const approvals = definition.approvals?.(settings);
  return {
    providerKey,
    capabilityKeys: Object.keys(table),
    ...(resourceFields ? { resourceFields } : {}),
    ...(senderFields ? { senderFields } : {}),
    ...(flows ? { flows } : {}),
    ...(approvals ? { approvals } : {}),
    buildRequest: (capabilityKey, input, ctx) => handlerOf(capabilityKey).request(input, ctx),
    parseResponse: (capabilityKey, res, input) => {
      const handler = handlerOf(capabilityKey);
      if (!handler.parse)
        throw new ProviderError(
          "unsupported_capability",
          providerKey,
          `${capabilityKey} on ${providerKey} runs as a flow of several requests`,
        );
      return handler.parse(res, input);
    },
  };
}

/**
 * Throws unless the adapter implements the capability: one asked for another was reached by a routing
 * bug, and refuses rather than send the vendor a wrong request.
 */
export function assertCapability(adapter: Pick<ProviderAdapter, "providerKey" | "capabilityKeys">, capabilityKey: string): void {
  if (!adapter.capabilityKeys.includes(capabilityKey)) {
    throw new ProviderError("unsupported_capability", adapter.providerKey, `${adapter.providerKey} does not implement ${capabilityKey}`);
  }
}
