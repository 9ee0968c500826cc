// The filters of the lists across domains (GET /capabilities, GET /routes): each parameter checked
// (400 INVALID_INPUT naming it), then applied to one catalog snapshot. `q` ranks by the intent
// index (best first); without `q` the list keeps catalog order.
import type { Request } from "express";
import type { Capability, Route } from "@agentic/proto/catalog/v1";
import { invalidInput } from "../errors";
import { single } from "../routes/wallet";
import { PAGE_PARAMS } from "./paging";
import type { CatalogSnapshot } from "./catalog-snapshot";

export const FILTER_PARAMS = ["q", "status", "provider", "feature", "networkKey", "maxPriceCredits"] as const;
export type CatalogFilters = Partial<Record<(typeof FILTER_PARAMS)[number], string>>;

export const CAPABILITY_STATUSES = ["live", "recommend_only", "planned", "pending"] as const;
export const ROUTE_STATUSES = ["live", "pending"] as const;
export const NETWORK_KEYS = ["direct", "agentcash", "mpp"] as const;
const NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
const MAX_Q_LENGTH = 200;

/** The filters of `req` for the list at `path`; unknown parameters are refused so a misspelt filter never answers unfiltered. */
export function parseCatalogFilters(req: Request, path: string, statuses: readonly string[]): CatalogFilters {
  const allowed: readonly string[] = [...FILTER_PARAMS, ...PAGE_PARAMS];
  const unknown = Object.keys(req.query).find((name) => !allowed.includes(name));
  if (unknown !== undefined) throw invalidInput(unknown, `is not a parameter of GET ${path}`, `Use only ${allowed.join(", ")}.`);
  const filters: CatalogFilters = {};
  const q = single(req, "q")?.trim();
  if (q !== undefined) {
    if (q.length === 0 || q.length > MAX_Q_LENGTH)
      throw invalidInput("q", `must be 1 to ${MAX_Q_LENGTH} characters`, "Send a few words, e.g. ?q=email.");
    filters.q = q;
  }
  const status = single(req, "status");
  if (status !== undefined) {
    if (!statuses.includes(status)) throw invalidInput("status", `must be one of ${statuses.join(", ")}`, "Send one status.");
    filters.status = status;
  }
  for (const name of ["provider", "feature"] as const) {
    const value = single(req, name);
    if (value === undefined) continue;
    if (!NAME.test(value)) throw invalidInput(name, "must be a key as the catalog writes it, e.g. resend", `Send ?${name}= in lower case.`);
    filters[name] = value;
  }
  const networkKey = single(req, "networkKey");
  if (networkKey !== undefined) {
    if (!(NETWORK_KEYS as readonly string[]).includes(networkKey))
      throw invalidInput("networkKey", `must be one of ${NETWORK_KEYS.join(", ")}`, "Send one networkKey.");
    filters.networkKey = networkKey;
  }
  const maxPrice = single(req, "maxPriceCredits");
  if (maxPrice !== undefined) {
    const n = /^\d+(\.\d+)?$/.test(maxPrice) ? Number(maxPrice) : NaN;
    if (!Number.isFinite(n))
      throw invalidInput("maxPriceCredits", "must be a number of credits, 0 or more", "Send e.g. ?maxPriceCredits=5.");
    filters.maxPriceCredits = maxPrice;
  }
  return filters;
}

/** The capabilities of `s` that pass `f`: best match first with `q`, else in catalog order. */
export function filterCapabilities(s: CatalogSnapshot, f: CatalogFilters): Capability[] {
  const max = f.maxPriceCredits === undefined ? undefined : Number(f.maxPriceCredits);
  const routesOf = (c: Capability) => s.routesByCapability.get(c.capabilityKey) ?? [];
  return ranked(s, f.q).filter(
    (c) =>
      (f.status === undefined || c.status === f.status) &&
      (f.provider === undefined || c.supportedProviders.includes(f.provider)) &&
      (f.feature === undefined || c.supportedFeatures.includes(f.feature)) &&
      (f.networkKey === undefined || routesOf(c).some((r) => r.networkKey === f.networkKey)) &&
      (max === undefined || (c.startingPriceCredits !== undefined && c.startingPriceCredits <= max)),
  );
}

/** The routes of `s` that pass `f` (`q` picks the routes of the capabilities it finds, best capability first). */
export function filterRoutes(s: CatalogSnapshot, f: CatalogFilters): Route[] {
  const max = f.maxPriceCredits === undefined ? undefined : Number(f.maxPriceCredits);
  const routes = f.q === undefined ? s.routes : ranked(s, f.q).flatMap((c) => s.routesByCapability.get(c.capabilityKey) ?? []);
  return routes.filter(
    (r) =>
      (f.status === undefined || r.status === f.status) &&
      (f.provider === undefined || r.providerKey === f.provider) &&
      (f.feature === undefined || r.supportedFeatures.includes(f.feature)) &&
      (f.networkKey === undefined || r.networkKey === f.networkKey) &&
      (max === undefined || r.startingCostCredits <= max),
  );
}

function ranked(s: CatalogSnapshot, q: string | undefined): readonly Capability[] {
  if (q === undefined) return s.capabilities;
  const byKey = new Map(s.capabilities.map((c) => [c.capabilityKey, c]));
  return s.find(q).flatMap((key) => byKey.get(key) ?? []);
}
