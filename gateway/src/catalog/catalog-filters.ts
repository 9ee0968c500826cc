// The filters of the lists across domains (GET /capabilities, GET /routes): each parameter checked
// (400 INVALID_INPUT naming it), then handed to the catalog, which applies them to one catalog
// version. `q` is ranked by the router's search (best first); without `q` the list keeps catalog order.
import type { Request } from "express";
import type { CatalogFilter } from "@agentic/proto/catalog/v1";
import { parseQuery } from "../http/request-schema";
import type { PageQuery, SelectingParams } from "./paging";
import type { capabilitiesQuery, routesQuery } from "../routes/requests/catalog-lists";

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

/**
 * What the catalog's FilterCapabilities and FilterRoutes select by: the checked filters, and `ranked`,
 * the search's ranking of `q` (best first), when there is one.
 */
export function catalogFilterOf(f: CatalogFilters, ranked: readonly string[] | undefined): CatalogFilter {
  return {
    ...(f.status === undefined ? {} : { status: f.status }),
    ...(f.provider === undefined ? {} : { provider: f.provider }),
    ...(f.feature === undefined ? {} : { feature: f.feature }),
    ...(f.networkKey === undefined ? {} : { networkKey: f.networkKey }),
    ...(f.maxPriceCredits === undefined ? {} : { maxPriceCredits: Number(f.maxPriceCredits) }),
    ...(ranked === undefined ? {} : { ranked: { capabilityKeys: [...ranked] } }),
  };
}
