// GET /capabilities and GET /routes: the catalog across domains, filtered (catalog/catalog-filters.ts)
// and always paged (DEFAULT_PAGE_LIMIT items unless `limit` says otherwise). Each page is rendered once
// per catalog version and kept under its exact path and query, so a repeated read is served from memory.
import { Router, type Request } from "express";
import { toCapabilityEntry, toRouteEntry } from "../mappers/catalog";
import type { CatalogSnapshot, CatalogSnapshots } from "../catalog/catalog-snapshot";
import { filterCapabilities, filterRoutes, parseCatalogFilters, type CatalogFilters } from "../catalog/catalog-filters";
import { capabilitiesQuery, routesQuery } from "./requests/catalog-lists";
import { filterDigest, nextPageUrl, pageOf, parsePageRequest } from "../catalog/paging";
import type { RenderedCatalogCache } from "../catalog/rendered-cache";
import { sendRendered } from "../catalog/send-rendered";

export function catalogSearchRoutes(snapshots: CatalogSnapshots, cache: RenderedCatalogCache): Router {
  const router = Router();

  const list = <T>(
    path: string,
    query: typeof capabilitiesQuery | typeof routesQuery,
    select: (s: CatalogSnapshot, f: CatalogFilters) => T[],
    toEntry: (item: T) => unknown,
  ) =>
    router.get(path, async (req: Request, res) => {
      const filters = parseCatalogFilters(req, path, query);
      const digest = filterDigest(path, filters);
      const page = parsePageRequest(req, digest, true)!;
      const answer = await cache.get(
        req.url,
        async () => {
          const snapshot = await snapshots.get();
          const answer = pageOf(select(snapshot, filters), snapshot.catalogVersion, page, digest, nextPageUrl(req, page.limit));
          // Only the page's items are rendered as resources.
          return { ...answer, value: (answer.value as T[]).map(toEntry) };
        },
        path,
      );
      sendRendered(req, res, answer);
    });

  list("/capabilities", capabilitiesQuery, filterCapabilities, toCapabilityEntry);
  list("/routes", routesQuery, filterRoutes, toRouteEntry);
  return router;
}
