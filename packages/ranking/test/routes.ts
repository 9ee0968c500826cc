// Builders of catalog records for unit tests: a route or capability with sensible defaults that a
// test overrides field by field.
import { routeReadiness } from "@agentic/catalog/testing";
import type { Capability, Route } from "@agentic/proto/catalog/v1";
import type { ScoringSettings } from "../src/domain/scoring";
import type { HealthSettings } from "../src/domain/route-health";

/**
 * A live, managed, direct route of `capabilityKey` by `providerKey`, with the readiness the catalog
 * derives from its status, gate and mode (unless `overrides` sets readiness itself, even to undefined).
 */
export function route(providerKey: string, overrides: Partial<Route> = {}, capabilityKey = "email.send"): Route {
  const [domainKey = "", ...parts] = capabilityKey.split(".");
  const networkKey = overrides.networkKey ?? "direct";
  const built: Route = {
    routeKey: networkKey === "direct" ? `${capabilityKey}.${providerKey}` : `${capabilityKey}.${providerKey}.${networkKey}`,
    domainKey,
    capabilityKey,
    capabilityId: parts.join("-"),
    providerKey,
    providerLabel: providerKey[0]!.toUpperCase() + providerKey.slice(1),
    networkKey,
    routeMode: "managed",
    managedByAgenticApi: true,
    settlementRail: "api_key",
    supportedFeatures: [],
    summary: `${providerKey} route`,
    startingCostCredits: 10,
    status: "live",
    executionGated: false,
    priors: { successRate: 0.99, latencyMs: 400, quality: 0.8 },
    priceSource: "test",
    models: [],
    billing: "per_call",
    billDrivers: [],
    ...overrides,
  };
  return "readiness" in overrides ? built : { ...built, readiness: routeReadiness(built) };
}

/** A live capability. */
export function capability(capabilityKey = "email.send", overrides: Partial<Capability> = {}): Capability {
  const [domainKey = "", ...parts] = capabilityKey.split(".");
  return {
    capabilityKey,
    capabilityId: parts.join("-"),
    domainKey,
    label: capabilityKey,
    description: capabilityKey,
    status: "live",
    supportedProviders: [],
    enabledProviders: [],
    supportedFeatures: [],
    availableRouteModes: ["managed"],
    contractStatus: "available",
    exampleTasks: [],
    synonyms: [],
    ...overrides,
  };
}

/** The service defaults (see config.ts). */
export const SCORING: ScoringSettings = {
  weights: { decay: 0.3, unnamedWeight: 0.05 },
  reliabilityZeroAt: 0.8,
  priorWeightCalls: 20,
  quotaLowAt: 0.8,
};

export const HEALTH: HealthSettings = {
  successWindow: 200,
  latencyWindow: 50,
  ewmaAlpha: 0.2,
  breakerFailures: 5,
  breakerCooldownMs: 30_000,
  maxRoutes: 10_000,
  maxCallerRoutes: 100_000,
};
