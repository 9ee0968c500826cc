// GET /domains/{d}/capabilities/{id}/routes: the capability's catalog routes (read through the
// rendered catalog cache) with each route's live `health` from the router (kept ROUTE_HEALTH_CACHE_MS).
// Health changes between catalog versions, so this answer is rendered per request, not kept whole;
// when the router cannot answer, the routes are listed without `health`.
import { Router } from "express";
import type { CatalogClient } from "@agentic/clients";
import { toRouteEntry } from "../mappers/catalog";
import { render, type RenderedCatalogCache } from "../catalog/rendered-cache";
import type { RouteHealthCache } from "../catalog/route-health-cache";
import { sendRendered } from "../catalog/send-rendered";
import { filterDigest, nextPageUrl, pageOf, pageRequestOf, parsePageQuery } from "../catalog/paging";
import { parseParams } from "../http/request-schema";
import { capabilityParams } from "./requests/capability";

type RouteEntry = ReturnType<typeof toRouteEntry>;

export function capabilityRoutesRoutes(catalog: CatalogClient, cache: RenderedCatalogCache, health: RouteHealthCache): Router {
  const router = Router();
  router.get("/domains/:domainKey/capabilities/:capabilityId/routes", async (req, res) => {
    const { domainKey, capabilityId } = parseParams(capabilityParams, req);
    const digest = filterDigest(req.path, {});
    const page = pageRequestOf(parsePageQuery(req), digest);
    // Kept under a key no request path has, so the cached-reads shortcut never serves it without health.
    const routes = await cache.get(`${req.path}#catalog`, async () => {
      const r = await catalog.listCapabilityRoutes({ domainKey, capabilityId });
      return { catalogVersion: r.catalogVersion, value: r.routes.map(toRouteEntry) };
    });
    // Asked only for a capability the catalog knows (a made-up path costs the router nothing).
    const healthByRoute = await health.get(domainKey, capabilityId);
    const all = JSON.parse(routes.body.toString("utf8")) as RouteEntry[];
    const paged = page ? pageOf(all, routes.catalogVersion, page, digest, nextPageUrl(req, [], page.limit)) : undefined;
    const entries = (paged?.value as RouteEntry[] | undefined) ?? all;
    const withHealth = healthByRoute
      ? entries.map((e) => {
          const h = healthByRoute.get(e.routeKey);
          return h ? { ...e, health: h } : e;
        })
      : entries;
    const rendered = render(withHealth, routes.etag.slice(1));
    if (paged?.headers) rendered.headers = paged.headers;
    sendRendered(req, res, rendered);
  });
  return router;
}
