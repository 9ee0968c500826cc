// The filters of the lists across domains (GET /capabilities, GET /routes): each parameter checked
// (400 INVALID_INPUT naming it), then applied to one catalog snapshot. `q` ranks by the intent
// index (best first); without `q` the list keeps catalog order.
import type { Request } from "express";
import type { Capability } from "@agentic/proto/catalog/v1";
import { parseQuery } from "../http/request-schema";
import type { PageQuery, SelectingParams } from "./paging";
import type { capabilitiesQuery, routesQuery } from "../routes/requests/catalog-lists";
import type { CatalogSnapshot, RouteEntry } from "./catalog-snapshot";

export const FILTER_PARAMS = ["q", "status", "provider", "feature", "networkKey", "maxPriceCredits"] as const;
export type CatalogFilters = Partial<Record<(typeof FILTER_PARAMS)[number], string>>;

/** What a request to GET /capabilities or GET /routes asks for: its filters (as text), and its page. */
export interface CatalogListRequest {
  filters: CatalogFilters;
  page: PageQuery;
  /** The parameters that select the answer, in canonical order (the cache key's and the next page's query). */
  selecting: SelectingParams;
}

/**
 * The query of `req` for the list at `path`, parsed once by its schema (requests/catalog-lists.ts):
 * unknown parameters are refused so a misspelt filter never answers unfiltered. Filters are kept as
 * text (a cursor's digest).
 */
export function parseCatalogListRequest(
  req: Request,
  path: string,
  query: typeof capabilitiesQuery | typeof routesQuery,
): CatalogListRequest {
  const { limit, cursor, maxPriceCredits, ...parsed } = parseQuery(query, req, `GET ${path}`);
  // The price as it was sent (a checked number), so the list's digest is the one its cursors were cut with.
  const filters: CatalogFilters = {
    ...parsed,
    ...(maxPriceCredits === undefined ? {} : { maxPriceCredits: req.query.maxPriceCredits as string }),
  };
  return {
    filters,
    page: { limit, cursor },
    selecting: FILTER_PARAMS.map((name) => [name, filters[name]] as const),
  };
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
export function filterRoutes(s: CatalogSnapshot, f: CatalogFilters): RouteEntry[] {
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
  return s.find(q).flatMap((key) => s.capabilitiesByKey.get(key) ?? []);
}
