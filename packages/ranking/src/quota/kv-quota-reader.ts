// Reads what is spent of routes' vendor quotas from the counters the executor takes from (NATS KV,
// @agentic/platform's vendor-quota.ts), so every router replica ranks from the same use. A read that
// fails leaves the route's quota unknown (logged): ranking goes on without it, and the executor, which
// takes from the counters itself, still holds the line.
import { readVendorQuota, type Logger, type QuotaWindow, type VendorQuotaBuckets } from "@agentic/platform";
import type { VendorQuotaReader } from "../domain/ports";
import type { QuotaUse } from "../domain/vendor-quota";

/** The reader over the buckets as opened (openVendorQuotaBuckets): a process that also takes from them opens them once for both. */
export function createKvQuotaReader(buckets: VendorQuotaBuckets, opts: { logger: Logger }): VendorQuotaReader {
  return {
    async read(routes, userId) {
      const uses = new Map<string, QuotaUse>();
      const now = Date.now();
      await Promise.all(
        routes.map(async (route) => {
          const q = route.vendorQuota;
          if (!q) return;
          try {
            const terms = { requests: q.requests, window: q.window as QuotaWindow, perUserRequests: q.perUserRequests };
            const use = await readVendorQuota(buckets, route.routeKey, userId, terms, now);
            uses.set(route.routeKey, { requests: q.requests, perUserRequests: q.perUserRequests, ...use });
          } catch (err) {
            opts.logger.warn({ err, routeKey: route.routeKey }, "vendor quota counters unreadable; ranking without them");
          }
        }),
      );
      return uses;
    },
  };
}
