// Resources a request names (an `inboxId`): before anything is held or any vendor is called, each
// must be one plain path segment (400) and the caller's own (404, worded the same whether it belongs to
// someone else or does not exist); then the request runs only on routes that use it — the routes of
// the provider that holds it whose adapter declares the field — or is refused with a 400 saying why,
// never served by a route that would ignore it (an email sent from our domain instead of the inbox).
import { unavailable } from "@agentic/platform/core";
import type { Capability, Route } from "@agentic/proto/catalog/v1";
import { dependencyOpts } from "./deadline";
import { asAppError, invalidInput, resourceNotFound } from "./errors";
import type { CallBudget, ExecuteCommand } from "./execution";
import { pathSegmentProblem } from "./path-segment";
import type { ExecutorDeps } from "./ports";
import type { ProviderRegistry } from "./provider-port";
import type { RouteReadiness, RoutingControls } from "./route-plan";

/** A resource the input names, checked to be the caller's. */
export interface NamedResource {
  /** The input field naming it, e.g. "inboxId". */
  field: string;
  kind: string;
  resourceId: string;
  /** The provider holding it (from the ledger's record): only its routes can use it. */
  provider: string;
}

/** Checks every resource `input` names is the caller's; returns them (none for most capabilities). */
export async function checkOwnedResources(
  deps: Pick<ExecutorDeps, "ledger" | "providers" | "settings">,
  cmd: ExecuteCommand,
  capabilityKey: string,
  input: Record<string, unknown>,
  contractPath: string,
  budget: CallBudget,
): Promise<NamedResource[]> {
  const kinds = new Map(deps.providers.resourceFieldsOf(capabilityKey).map((f) => [f.field, f.kind]));
  const named = [...kinds].flatMap(([field, kind]) =>
    typeof input[field] === "string" ? [{ field, kind, resourceId: input[field] as string }] : [],
  );
  // The id is checked before it is looked up, as it would be before it reached a vendor URL.
  for (const { field, resourceId } of named) {
    const problem = pathSegmentProblem(resourceId);
    if (problem) throw invalidInput(field, problem, contractPath);
  }
  const lookup = deps.ledger.getOwnedResource?.bind(deps.ledger);
  const owned: NamedResource[] = [];
  for (const n of named) {
    if (!lookup) throw unavailable("UNAVAILABLE", `${n.field} cannot be checked on this deployment. Nothing was charged.`, "Retry later.");
    try {
      const { resource } = await lookup(
        { userId: cmd.userId, kind: n.kind, resourceId: n.resourceId },
        dependencyOpts(deps.settings, budget),
      );
      owned.push({ ...n, provider: resource?.provider ?? "" });
    } catch (err) {
      if (asAppError(err).kind === "not_found") throw resourceNotFound(n.field, n.kind, n.resourceId);
      throw unavailable("UNAVAILABLE", `Whether ${n.field} is yours could not be checked; nothing was charged.`, "Retry shortly.");
    }
  }
  return owned;
}

/**
 * The routes of `routes` that use every named resource; 400 naming the field when a pin names a
 * route or provider that would ignore it, or when no route that uses it can run here now.
 */
export function routesUsingResources(
  providers: Pick<ProviderRegistry, "resourceFieldsOf">,
  capability: Capability,
  routes: readonly Route[],
  named: readonly NamedResource[],
  controls: RoutingControls,
  readiness: (route: Route) => RouteReadiness,
  contractPath: string,
): Route[] {
  const first = named[0];
  if (!first) return [...routes];
  const declared = providers.resourceFieldsOf(capability.capabilityKey);
  const uses = (route: Route) =>
    named.every(
      (n) => route.providerKey === n.provider && declared.some((d) => d.field === n.field && d.providerKey === route.providerKey),
    );
  const what = `a ${first.kind} of ${first.provider}`;
  const pinned = controls.routeKey !== undefined ? routes.find((r) => r.routeKey === controls.routeKey) : undefined;
  if (pinned && !uses(pinned)) {
    throw invalidInput(
      first.field,
      `route ${pinned.routeKey} cannot use it (it is ${what}); pin a route of ${first.provider}, or drop ${first.field}`,
      contractPath,
    );
  }
  if (
    controls.routeKey === undefined &&
    controls.provider !== undefined &&
    controls.provider !== first.provider &&
    routes.some((r) => r.providerKey === controls.provider)
  ) {
    throw invalidInput(
      first.field,
      `provider ${controls.provider} cannot use it (it is ${what}); pin ${first.provider}, or drop ${first.field}`,
      contractPath,
    );
  }
  const usable = routes.filter(uses);
  if (usable.length === 0)
    throw invalidInput(
      first.field,
      `no route of ${capability.capabilityKey} can use it (it is ${what}). Nothing was charged`,
      contractPath,
    );
  const blocked = usable
    .map((r) => ({ route: r, readiness: readiness(r) }))
    .filter((x): x is { route: Route; readiness: Exclude<RouteReadiness, { ready: true }> } => !x.readiness.ready);
  if (blocked.length === usable.length) {
    const why = blocked.map((b) => `${b.route.routeKey}: ${b.readiness.reason}`).join("; ");
    throw invalidInput(
      first.field,
      `only ${usable.map((r) => r.routeKey).join(", ")} can use it, and none can run now (${why}). Nothing was charged`,
      contractPath,
    );
  }
  return usable;
}
