// GET /capabilities and GET /routes: the catalog across domains, filtered (catalog/catalog-filters.ts)
// and always paged (DEFAULT_PAGE_LIMIT items unless `limit` says otherwise). The catalog cuts each page
// from one catalog version (FilterCapabilities, FilterRoutes), so the gateway never holds the whole
// catalog; `q` is ranked by the router's search, the index POST /route reads. The query is parsed
// once; each page is rendered once per catalog version and kept under its path and canonical query
// (the parameters that select it, in a fixed order), so a repeated read is served from memory whatever
// order its parameters came in, and the Link of a page names the next one by that key.
import { Router, type Request } from "express";
import type { CatalogClient, RouterClient } from "@agentic/clients";
import type { CatalogFilter } from "@agentic/proto/catalog/v1";
import { unavailable } from "@agentic/platform";
import { toCapabilityEntry, toRouteEntry } from "../mappers/catalog";
import { catalogFilterOf, parseCatalogListRequest, type CatalogFilters } from "../catalog/catalog-filters";
import { capabilitiesQuery, routesQuery } from "./requests/catalog-lists";
import { filterDigest, nextPageUrl, pagedAnswer, pageKey, pageRequestOf, type PageRequest } from "../catalog/paging";
import type { RenderedCatalogCache } from "../catalog/rendered-cache";
import { sendRendered } from "../catalog/send-rendered";

/** One page of a list across domains, as the catalog cut it. */
interface CutPage {
  items: readonly unknown[];
  total: number;
  catalogVersion: string;
}

/**
 * A search and the catalog answering from two versions (the router not yet reloaded after a catalog
 * change, or the other way round) are asked again this many times at most: a page is never cut from
 * one version by another's ranking.
 */
const SEARCH_ATTEMPTS = 3;

export function catalogSearchRoutes(
  catalog: Pick<CatalogClient, "filterCapabilities" | "filterRoutes">,
  search: Pick<RouterClient, "findCapabilities">,
  cache: RenderedCatalogCache,
): Router {
  const router = Router();

  /** The page of the list `cut` selects by `filters`, its ranking (with `q`) from the same catalog version. */
  const read = async (filters: CatalogFilters, cut: (filter: CatalogFilter) => Promise<CutPage>): Promise<CutPage> => {
    if (filters.q === undefined) return cut(catalogFilterOf(filters, undefined));
    for (let attempt = 1; ; attempt++) {
      const found = await search.findCapabilities({ words: filters.q });
      const answer = await cut(catalogFilterOf(filters, found.capabilityKeys));
      if (answer.catalogVersion === found.catalogVersion) return answer;
      if (attempt >= SEARCH_ATTEMPTS)
        throw unavailable("UNAVAILABLE", "the search has not caught up with the catalog's new version yet", "Retry in a few seconds.");
    }
  };

  const list = (
    path: string,
    query: typeof capabilitiesQuery | typeof routesQuery,
    cut: (filter: CatalogFilter, page: PageRequest) => Promise<CutPage>,
  ) =>
    router.get(path, async (req: Request, res) => {
      const { filters, page: asked, selecting } = parseCatalogListRequest(req, path, query);
      const key = pageKey(path, selecting, asked);
      const answer = await cache.get(
        key,
        async () => {
          // Computed on a miss only: a page kept in memory is answered without hashing its filters.
          const digest = filterDigest(path, filters);
          const page = pageRequestOf(asked, digest, true)!;
          const { items, total, catalogVersion } = await read(filters, (filter) => cut(filter, page));
          return pagedAnswer(items, total, catalogVersion, page, digest, nextPageUrl(req, selecting, page.limit));
        },
        path,
      );
      sendRendered(req, res, answer);
    });

  list("/capabilities", capabilitiesQuery, async (filter, { offset, limit }) => {
    const { capabilities, total, catalogVersion } = await catalog.filterCapabilities({ filter, offset, limit });
    return { items: capabilities.map(toCapabilityEntry), total, catalogVersion };
  });
  list("/routes", routesQuery, async (filter, { offset, limit }) => {
    const { routes, total, catalogVersion } = await catalog.filterRoutes({ filter, offset, limit });
    return { items: routes.map(toRouteEntry), total, catalogVersion };
  });
  return router;
}
