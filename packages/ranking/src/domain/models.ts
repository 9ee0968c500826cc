// Routing by model: a recommend naming a model considers only the routes that serve it, as execute
// does (a route that does not serve it would be refused by its vendor, or bill a model nobody priced).
import type { Route } from "@agentic/proto/catalog/v1";
import { InputError } from "./request-input";

/** The body field naming the model. */
export const MODEL_FIELD = "model";

/**
 * The routes serving the model the body names. Capabilities whose routes list no models, and bodies
 * that name none, keep every route; a route listing no models serves none. A model no route serves
 * is an InputError naming the models that are served.
 */
export function routesForModel(
  capabilityKey: string,
  routes: readonly Route[],
  fields: Readonly<Record<string, unknown>>,
): readonly Route[] {
  const model = fields[MODEL_FIELD];
  if (typeof model !== "string" || !routes.some((r) => r.models.length > 0)) return routes;
  const serving = routes.filter((r) => r.models.some((m) => m.model === model));
  if (serving.length > 0) return serving;
  const served = [...new Set(routes.flatMap((r) => r.models.map((m) => m.model)))].sort();
  throw new InputError(
    MODEL_FIELD,
    `model: no route of ${capabilityKey} serves "${model}"; served: ${served.join(", ")}`,
    `Set 'model' to one of: ${served.join(", ")} (the capability's routes list each one's models and prices).`,
  );
}
