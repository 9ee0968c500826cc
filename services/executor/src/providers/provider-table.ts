// A provider as a table: its key, its documented hosts, its account settings from the environment, and
// per capability the plain functions that speak to the vendor (build the request and parse the answer,
// or run a flow of several requests) with the input fields the executor checks first. Adding a provider
// is one such table in its own file plus one line in all-providers.ts; the registry (registry.ts) makes
// the adapter the domain calls from it, checking and dispatching the capability in one place.
import type { ProviderHttpRequest, RailNetwork, RailResponse } from "../domain/rail-port";
import type { ApprovalRule, CapabilityInput, ProviderContext, ProviderFlow, ProviderResult, SenderField } from "../domain/provider-port";

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
 * names the main request. Direct routes only (domain/vendor-flow.ts).
 */
export interface FlowHandler extends HandlerBase {
  flow: ProviderFlow;
  parse?: undefined;
}

/** A provider's capabilities, by capability key. */
export type CapabilityTable = Readonly<Record<string, CapabilityHandler>>;

/** Account settings of a provider (ProviderContext.settings), as read from the environment. */
export type ProviderSettingsMap = Readonly<Record<string, string>>;

/** Reads one environment value by name (already validated by the executor's config schema). */
export type EnvReader = (name: string) => string | undefined;

export interface ProviderModule {
  /** The catalog's providerKey, e.g. `exa`. */
  readonly key: string;
  /** Documented public host per network; a network without one is reachable only when configured. */
  readonly defaultBaseUrls: Partial<Record<RailNetwork, string>>;
  /** The vendor's direct API is free and takes no key (a direct endpoint is registered without one). */
  readonly keyless?: boolean;
  /** Account settings (e.g. a default sender) read from the environment; handlers receive them as `ctx.settings`. */
  settingsFromEnv?(read: EnvReader): Record<string, string>;
  /** The table; a function when handlers depend on the account settings (read once, when the provider is registered). */
  readonly capabilities: CapabilityTable | ((settings: ProviderSettingsMap) => CapabilityTable);
  /** Approvals its capabilities issue and require (ProviderAdapter.approvals). */
  approvals?(settings: ProviderSettingsMap): readonly ApprovalRule[];
}

/** Declares a provider (typed, so its handlers' parameters need no annotations). */
export function defineProvider(module: ProviderModule): ProviderModule {
  return module;
}
