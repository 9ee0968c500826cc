// Catalog and contract endpoints (no auth): read through the catalog service, rendered as the
// spec's resources, and served from memory for as long as the catalog version stays the same.
import { Router } from "express";
import type { z } from "zod";
import type { CatalogClient } from "@agentic/clients";
import { toCapabilityEntry, toContractEntry, toDomainEntry, toRouteEntry } from "../mappers/catalog";
import type { RenderedCatalogCache, VersionedList, VersionedValue } from "../catalog/rendered-cache";
import { filterDigest, nextPageUrl, pageKey, pageOf, pageRequestOf, parsePageQuery } from "../catalog/paging";
import { sendRendered } from "../catalog/send-rendered";
import { parseParams } from "../http/request-schema";
import { capabilityParams, domainParams } from "./requests/capability";

const noParams = domainParams.pick({});
type Params = typeof noParams | typeof domainParams | typeof capabilityParams;

/** The answer of GET /domains as the catalog gives it now (also read ahead by /readyz, see health.ts). */
export const readDomains = (catalog: CatalogClient) => async (): Promise<VersionedValue> => {
  const r = await catalog.listDomains({});
  return { catalogVersion: r.catalogVersion, value: r.domains.map(toDomainEntry) };
};

export function catalogRoutes(catalog: CatalogClient, cache: RenderedCatalogCache): Router {
  const router = Router();

  /** GET `path` answered from the cache, loading with `load` on a miss (keyed by the request path). */
  const cached = <P extends Params>(path: string, params: P, load: (params: z.output<P>) => Promise<VersionedValue>) =>
    router.get(path, async (req, res) => {
      const parsed = parseParams(params, req);
      sendRendered(req, res, await cache.get(req.path, () => load(parsed), path));
    });

  /**
   * A list GET: whole from the cache as before paging, or, with `limit` or `cursor`, the page asked
   * for, cut from the whole list kept as values and kept rendered under its path and canonical query
   * (limit, cursor: other parameters select nothing here and share the page's entry).
   */
  const list = <P extends Params>(path: string, params: P, load: (params: z.output<P>) => Promise<VersionedList>) =>
    router.get(path, async (req, res) => {
      const parsed = parseParams(params, req);
      const asked = parsePageQuery(req);
      if (asked.limit === undefined && asked.cursor === undefined) {
        const whole = async () => {
          const { catalogVersion, items } = await load(parsed);
          return { catalogVersion, value: items };
        };
        sendRendered(req, res, await cache.get(req.path, whole, path));
        return;
      }
      const key = pageKey(req.path, [], asked);
      const answer = await cache.get(
        key,
        async () => {
          const digest = filterDigest(req.path, {});
          const page = pageRequestOf(asked, digest)!;
          const { catalogVersion, items } = await cache.getList(req.path, () => load(parsed));
          return pageOf(items, catalogVersion, page, digest, nextPageUrl(req, [], page.limit));
        },
        path,
      );
      sendRendered(req, res, answer);
    });

  list("/domains", noParams, async () => {
    const { catalogVersion, value } = await readDomains(catalog)();
    return { catalogVersion, items: value as unknown[] };
  });
  cached("/domains/:domainKey", domainParams, async ({ domainKey }) => {
    const r = await catalog.getDomain({ domainKey });
    return { catalogVersion: r.catalogVersion, value: toDomainEntry(r.domain!) };
  });
  list("/domains/:domainKey/capabilities", domainParams, async ({ domainKey }) => {
    const r = await catalog.listCapabilities({ domainKey });
    return { catalogVersion: r.catalogVersion, items: r.capabilities.map(toCapabilityEntry) };
  });
  list("/domains/:domainKey/routes", domainParams, async ({ domainKey }) => {
    const r = await catalog.listDomainRoutes({ domainKey });
    return { catalogVersion: r.catalogVersion, items: r.routes.map(toRouteEntry) };
  });
  cached("/domains/:domainKey/capabilities/:capabilityId", capabilityParams, async ({ domainKey, capabilityId }) => {
    const r = await catalog.getCapability({ domainKey, capabilityId });
    return { catalogVersion: r.catalogVersion, value: toCapabilityEntry(r.capability!) };
  });
  // A capability's routes carry live health: routes/capability-routes.ts answers them.
  cached("/domains/:domainKey/capabilities/:capabilityId/contract", capabilityParams, async ({ domainKey, capabilityId }) => {
    const r = await catalog.getContract({ domainKey, capabilityId });
    return { catalogVersion: r.catalogVersion, value: toContractEntry(r.contract!) };
  });

  return router;
}
