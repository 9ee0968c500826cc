// The executor's vendor quota port over the shared NATS KV counters (@agentic/platform's
// vendor-quota.ts): one request taken per attempt on a route the catalog gives a quota.
// The counters guard fairness between users; the vendor's own limit stays the hard one. So when
// the counters cannot be reached the attempt goes ahead (logged): a NATS outage must not take every
// quota route away from everyone.
import { takeVendorQuota, type Logger, type QuotaWindow, type VendorQuotaBuckets } from "@agentic/platform";
import type { VendorQuotaPort } from "../domain/ports";

/** The port over the buckets as opened (openVendorQuotaBuckets with ensureConfig: the executor writes them). */
export function createKvVendorQuota(buckets: VendorQuotaBuckets, opts: { logger: Logger }): VendorQuotaPort {
  return {
    async take(route, userId) {
      const q = route.vendorQuota;
      if (!q) return { ok: true };
      try {
        const terms = { requests: q.requests, window: q.window as QuotaWindow, perUserRequests: q.perUserRequests };
        return await takeVendorQuota(buckets, route.routeKey, userId, terms, Date.now());
      } catch (err) {
        opts.logger.warn({ err, routeKey: route.routeKey }, "vendor quota counters unreachable; the attempt goes ahead uncounted");
        return { ok: true };
      }
    },
  };
}
