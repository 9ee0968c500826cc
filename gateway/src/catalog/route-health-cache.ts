// Route health per capability from the router, kept a short while: agents list routes in loops, and
// health moves by the second, not by the request. A router that is down or slow costs the route list
// its health figures, never the list itself.
import type { Logger } from "@agentic/platform";
import type { RouterClient } from "@agentic/clients";
import { toRouteHealthEntry, type RouteHealthEntry } from "../mappers/route-health";

/** How long one capability's health is reused, in ms. */
export const ROUTE_HEALTH_CACHE_MS = 2_000;
/** Longest wait for the router, in ms: the route list answers without health rather than late. */
const ROUTE_HEALTH_DEADLINE_MS = 500;

interface Kept {
  at: number;
  health: Promise<ReadonlyMap<string, RouteHealthEntry> | undefined>;
}

export class RouteHealthCache {
  private readonly kept = new Map<string, Kept>();

  constructor(
    private readonly router: Pick<RouterClient, "getRouteHealth">,
    private readonly logger: Logger,
    private readonly now: () => number = Date.now,
  ) {}

  /** Health by route key of one capability's routes; undefined when the router cannot say now. */
  get(domainKey: string, capabilityId: string): Promise<ReadonlyMap<string, RouteHealthEntry> | undefined> {
    const key = `${domainKey}/${capabilityId}`;
    const hit = this.kept.get(key);
    if (hit && this.now() - hit.at < ROUTE_HEALTH_CACHE_MS) return hit.health;
    // One read per capability at a time: concurrent lists share it (and an unanswered read too, briefly).
    const health = this.read(domainKey, capabilityId);
    this.forgetExpired();
    this.kept.set(key, { at: this.now(), health });
    return health;
  }

  private async read(domainKey: string, capabilityId: string): Promise<ReadonlyMap<string, RouteHealthEntry> | undefined> {
    try {
      const { routes } = await this.router.getRouteHealth({ domainKey, capabilityId }, { deadlineMs: ROUTE_HEALTH_DEADLINE_MS });
      return new Map(routes.map((r) => [r.routeKey, toRouteHealthEntry(r)]));
    } catch (err) {
      this.logger.warn({ err, domainKey, capabilityId }, "route health unavailable; listing routes without it");
      return undefined;
    }
  }

  /** Drops what has expired, so capabilities nobody lists any more do not stay in memory. */
  private forgetExpired(): void {
    const now = this.now();
    for (const [key, kept] of this.kept) if (now - kept.at >= ROUTE_HEALTH_CACHE_MS) this.kept.delete(key);
  }
}
