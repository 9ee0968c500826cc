// POST /domains/{d}/capabilities/{id}/recommend: free; the router scores every route for this caller.
import { Router, type RequestHandler } from "express";
import type { CapabilityParams } from "./params";
import type { RouterClient } from "@agentic/clients";
import { objectBody } from "./body";

export function recommendRoutes(router: RouterClient, auth: RequestHandler): Router {
  const routes = Router();
  routes.post<CapabilityParams>("/domains/:domainKey/capabilities/:capabilityId/recommend", auth, async (req, res) => {
    const input = objectBody(req);
    const { catalogVersion: _internal, ...recommendation } = await router.recommend({
      userId: res.locals.caller.userId,
      domainKey: req.params.domainKey,
      capabilityId: req.params.capabilityId,
      input,
    });
    res.json(recommendation);
  });
  return routes;
}
