// GET /capabilities and GET /routes: the catalog across domains, filtered (catalog/catalog-filters.ts)
// and always paged (DEFAULT_PAGE_LIMIT items unless `limit` says otherwise). The query is parsed once;
// each page is rendered once per catalog version and kept under its path and canonical query (the
// parameters that select it, in a fixed order), so a repeated read is served from memory whatever
// order its parameters came in, and the Link of a page names the next one by that key.
import { Router, type Request } from "express";
import { toCapabilityEntry } from "../mappers/catalog";
import type { CatalogSnapshot, CatalogSnapshots } from "../catalog/catalog-snapshot";
import { filterCapabilities, filterRoutes, parseCatalogListRequest, type CatalogFilters } from "../catalog/catalog-filters";
import { capabilitiesQuery, routesQuery } from "./requests/catalog-lists";
import { canonicalQuery, filterDigest, nextPageUrl, pageOf, pageRequestOf } from "../catalog/paging";
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
      const { filters, page: asked, selecting } = parseCatalogListRequest(req, path, query);
      const key = path + canonicalQuery([...selecting, ["limit", asked.limit], ["cursor", asked.cursor]]);
      const answer = await cache.get(
        key,
        async () => {
          // Computed on a miss only: a page kept in memory is answered without hashing its filters.
          const digest = filterDigest(path, filters);
          const page = pageRequestOf(asked, digest, true)!;
          const snapshot = await snapshots.get();
          const answer = pageOf(select(snapshot, filters), snapshot.catalogVersion, page, digest, nextPageUrl(req, selecting, page.limit));
          // Only the page's items are rendered as resources.
          return { ...answer, value: (answer.value as T[]).map(toEntry) };
        },
        path,
      );
      sendRendered(req, res, answer);
    });

  list("/capabilities", capabilitiesQuery, filterCapabilities, toCapabilityEntry);
  // Routes are kept as their entries already (catalog-snapshot.ts).
  list("/routes", routesQuery, filterRoutes, (entry) => entry);
  return router;
}
