// POST /route and POST /domains/{domainKey}/route: intent routing. A task in words → the capabilities
// that do it (ranked, scored, explained), whether nothing does (abstained) and the constraints the
// words state. Free and keyless like the catalog reads; a request that sends an API key is
// authenticated (and limited) as recommend is, and its top match then says whether it can run now.
import { Router, type Request, type RequestHandler, type Response } from "express";
import type { RouterClient } from "@agentic/clients";
import type { RouteTaskResponse } from "@agentic/proto/router/v1";
import { parseBody, parseParams } from "../http/request-schema";
import { ROUTE_TASK_UNKNOWN_FIELD, routeTaskBody } from "./requests/route-task";
import { domainParams } from "./requests/capability";
import { objectBody } from "./body";

export function routeTaskRoutes(router: RouterClient, auth: RequestHandler): Router {
  const routes = Router();
  const withOptionalKey: RequestHandler = (req, res, next) => (req.headers.authorization === undefined ? next() : auth(req, res, next));
  const answer = (domainKey: string | undefined) => async (req: Request, res: Response) => {
    const { task, limit } = routeBody(req);
    const caller = res.locals.caller as { userId: string; keyId?: string } | undefined;
    const routed = await router.routeTask({
      task,
      limit,
      ...(domainKey !== undefined ? { domainKey } : {}),
      ...(caller ? { userId: caller.userId, ...(caller.keyId ? { keyId: caller.keyId } : {}) } : {}),
    });
    res.json(toRouteAnswer(routed));
  };
  routes.post("/route", withOptionalKey, answer(undefined));
  routes.post("/domains/:domainKey/route", withOptionalKey, (req, res) => answer(parseParams(domainParams, req).domainKey)(req, res));
  return routes;
}

/** The body (requests/route-task.ts): `task` and `limit`; anything else is refused by name. */
function routeBody(req: Request): { task: string; limit: number } {
  return parseBody(routeTaskBody, objectBody(req), {
    hint: ROUTE_TASK_UNKNOWN_FIELD.hint,
    unknown: ROUTE_TASK_UNKNOWN_FIELD,
    nullIsAbsent: true,
  });
}

/** The REST answer: every match field always present (null when unknown); canExecuteNow only on the top match of a keyed request. */
function toRouteAnswer(r: RouteTaskResponse) {
  const c = r.constraints;
  return {
    task: r.task,
    matches: r.matches.map((m) => ({
      capabilityKey: m.capabilityKey,
      domainKey: m.domainKey,
      capabilityId: m.capabilityId,
      label: m.label,
      status: m.status,
      score: m.score,
      why: m.why,
      startingPriceCredits: m.startingPriceCredits ?? null,
      contractPath: m.contractPath ?? null,
      recommendPath: m.recommendPath ?? null,
      ...(m.canExecuteNow !== undefined ? { canExecuteNow: m.canExecuteNow } : {}),
    })),
    abstained: r.abstained,
    constraints: {
      optimizationPreferences: c?.optimizationPreferences ?? [],
      ...(c?.maxPriceCredits !== undefined ? { maxPriceCredits: c.maxPriceCredits } : {}),
      ...(c?.provider !== undefined ? { provider: c.provider } : {}),
      fields: c?.fields ?? {},
    },
    catalogVersion: r.catalogVersion,
  };
}
