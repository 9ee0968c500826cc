// POST /route and POST /domains/{domainKey}/route: intent routing. A task in words → the capabilities
// that do it (ranked, scored, explained), whether nothing does (abstained) and the constraints the
// words state. Free and keyless like the catalog reads; a request that sends an API key is
// authenticated (and limited) as recommend is, and its top match then says whether it can run now.
import { Router, type Request, type RequestHandler, type Response } from "express";
import type { RouterClient } from "@agentic/clients";
import type { RouteTaskResponse } from "@agentic/proto/router/v1";
import { invalidInput } from "../errors";
import { objectBody } from "./body";

/** Longest task accepted, in characters; the most matches one answer lists. */
export const TASK_MAX_LENGTH = 2_000;
export const ROUTE_LIMIT_MAX = 20;
export const ROUTE_LIMIT_DEFAULT = 5;

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
  routes.post<{ domainKey: string }>("/domains/:domainKey/route", withOptionalKey, (req, res) => answer(req.params.domainKey)(req, res));
  return routes;
}

/** The body: `task` (1..2000 characters) and `limit` (1..20, default 5); anything else is refused by name. */
function routeBody(req: Request): { task: string; limit: number } {
  const body = objectBody(req);
  for (const key of Object.keys(body)) {
    if (key !== "task" && key !== "limit")
      throw invalidInput(key, "is not a field of a route request", 'Send {"task": "<what you want done>", "limit": 5}.');
  }
  const task = body.task;
  if (task === undefined || task === null) throw invalidInput("task", "is required", 'Send {"task": "<what you want done, in words>"}.');
  if (typeof task !== "string") throw invalidInput("task", "must be a string", 'Send {"task": "<what you want done, in words>"}.');
  if (task.trim() === "")
    throw invalidInput("task", "must not be empty", 'Describe the task in words, e.g. "send an email to ana@example.com".');
  if (task.length > TASK_MAX_LENGTH)
    throw invalidInput("task", `must be at most ${TASK_MAX_LENGTH} characters`, "Describe the task in fewer words.");
  const limit = body.limit ?? ROUTE_LIMIT_DEFAULT;
  if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit < 1 || limit > ROUTE_LIMIT_MAX) {
    throw invalidInput(
      "limit",
      `must be a whole number from 1 to ${ROUTE_LIMIT_MAX}`,
      `Send limit between 1 and ${ROUTE_LIMIT_MAX}, or leave it out (${ROUTE_LIMIT_DEFAULT}).`,
    );
  }
  return { task, limit };
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
