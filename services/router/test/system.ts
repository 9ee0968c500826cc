// The real parts recommend needs, started together for the integration tests: nats-server, the
// catalog service (on the router's fixture catalog unless told otherwise), the ledger with granted
// wallets, and a router.
import { startNatsServer, startTestSystem, type NatsServerHandle } from "@agentic/testing";
import { startTestCatalog, type TestCatalog } from "@agentic/catalog/testing";
import { startTestLedger, type TestLedger } from "@agentic/ledger/testing";
import { FIXTURE_CATALOG_DIR, startTestRouter, type TestRouter } from "./harness";

export { FIXTURE_CATALOG_DIR };

export interface RouterSystem {
  nats: NatsServerHandle;
  catalog: TestCatalog;
  ledger: TestLedger;
  router: TestRouter;
  /** Starts one more router on the same catalog, ledger and NATS (stopped by stop()). */
  addRouter(env?: Record<string, string>): Promise<TestRouter>;
  stop(): Promise<void>;
}

export interface RouterSystemOptions {
  /** Funds wallets: userId → credits. */
  grants?: Record<string, number>;
  /** Router env overrides (see src/config.ts). */
  env?: Record<string, string>;
  /** Catalog directory the catalog serves (default FIXTURE_CATALOG_DIR; the shipped one is the catalog's DEFAULT_CATALOG_DIR). */
  catalogDir?: string;
}

/** Starts everything; `grants` funds wallets, `env` tunes the router, `catalogDir` picks the catalog data. */
export async function startRouterSystem(opts: RouterSystemOptions = {}): Promise<RouterSystem> {
  return startTestSystem(async (stack) => {
    const nats = await stack.start(startNatsServer());
    const catalog = await stack.start(startTestCatalog({ catalogDir: opts.catalogDir ?? FIXTURE_CATALOG_DIR }));
    const ledger = await stack.start(startTestLedger({ natsUrl: nats.url, grants: opts.grants }));
    const addRouter = (env = opts.env) =>
      stack.start(startTestRouter({ catalogAddress: catalog.address, ledgerAddress: ledger.address, natsUrl: nats.url, env }));
    const router = await addRouter();
    return { nats, catalog, ledger, router, addRouter };
  });
}
