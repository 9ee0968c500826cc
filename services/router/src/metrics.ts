// The router's own metrics (Prometheus, served with the RPC and process metrics on METRICS_PORT):
// how its wallet cache answers. Read from each cache's counts when scraped, so the cache stays plain
// code; every router app of the process (tests run several) adds to the same series.
import { Counter, Gauge } from "prom-client";
import { singleton } from "@agentic/platform";
import type { WalletCache } from "./wallet/wallet-cache";

const caches = new Set<WalletCache>();

const sum = (count: (cache: WalletCache) => number): number => [...caches].reduce((total, cache) => total + count(cache), 0);

/**
 * router_wallet_reads_total{result}: hit (answered from the cache), miss (read from the ledger and
 * kept), bypassed (read from the ledger with the cache off or not live). A falling hit share means
 * recommend pays the ledger hop again.
 */
singleton(
  "router_wallet_reads_total",
  () =>
    new Counter({
      name: "router_wallet_reads_total",
      help: "Wallet reads of recommend, by how the router's wallet cache answered them (hit, miss, bypassed).",
      labelNames: ["result"] as const,
      collect() {
        this.reset();
        this.inc(
          { result: "hit" },
          sum((c) => c.stats.hits),
        );
        this.inc(
          { result: "miss" },
          sum((c) => c.stats.misses),
        );
        this.inc(
          { result: "bypassed" },
          sum((c) => c.stats.bypassed),
        );
      },
    }),
);

/** router_wallet_announcements_total: the ledger's wallet announcements applied (each empties one user's answers). */
singleton(
  "router_wallet_announcements_total",
  () =>
    new Counter({
      name: "router_wallet_announcements_total",
      help: "The ledger's wallet-changed announcements the router applied to its wallet cache.",
      collect() {
        this.reset();
        this.inc(sum((c) => c.stats.invalidations));
      },
    }),
);

/**
 * router_wallet_cache_live: 1 while the router hears the ledger's announcements and serves from its
 * cache, 0 while it may miss them (not subscribed yet, NATS disconnected) and reads every wallet.
 */
singleton(
  "router_wallet_cache_live",
  () =>
    new Gauge({
      name: "router_wallet_cache_live",
      help: "1 while the router's wallet cache is live (the ledger's announcements are received), else 0.",
      collect() {
        this.set(caches.size > 0 && [...caches].every((c) => c.isLive) ? 1 : 0);
      },
    }),
);

/** Counts `cache` in the router's metrics until the returned function is called (the app's stop). */
export function exposeWalletCacheMetrics(cache: WalletCache): () => void {
  caches.add(cache);
  return () => caches.delete(cache);
}
