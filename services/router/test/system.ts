// The real parts recommend needs, started together for the integration tests: nats-server, the
// catalog service on the router's fixture catalog, the ledger with granted wallets, and a router.
import { join } from "node:path";
import { startNatsServer, type NatsServerHandle } from "@agentic/platform/testing";
import { startTestCatalog, type TestCatalog } from "../../catalog/test/harness";
import { startTestLedger, type TestLedger } from "../../ledger/test/harness";
import { startTestRouter, type TestRouter } from "./harness";

/** The fixture catalog: live email routes (managed and byo), gated text.analyze, two geo time routes. */
export const FIXTURE_CATALOG_DIR = join(__dirname, "fixtures", "catalog");

export interface RouterSystem {
  nats: NatsServerHandle;
  catalog: TestCatalog;
  ledger: TestLedger;
  router: TestRouter;
  /** Starts one more router on the same catalog, ledger and NATS (stopped by stop()). */
  addRouter(env?: Record<string, string>): Promise<TestRouter>;
  stop(): Promise<void>;
}

/** Starts everything; `grants` funds wallets (userId → credits), `env` tunes the router. */
export async function startRouterSystem(opts: { grants?: Record<string, number>; env?: Record<string, string> } = {}): Promise<RouterSystem> {
  const nats = await startNatsServer();
  const stops: (() => Promise<void>)[] = [() => nats.stop()];
  const stopAll = async () => {
    for (const stop of stops.splice(0).reverse()) await stop();
  };
  try {
    const catalog = await startTestCatalog({ catalogDir: FIXTURE_CATALOG_DIR });
    stops.push(() => catalog.stop());
    const ledger = await startTestLedger({ natsUrl: nats.url, grants: opts.grants });
    stops.push(() => ledger.stop());
    const addRouter = async (env = opts.env) => {
      const router = await startTestRouter({ catalogAddress: catalog.address, ledgerAddress: ledger.address, natsUrl: nats.url, env });
      stops.push(() => router.stop());
      return router;
    };
    const router = await addRouter();
    return { nats, catalog, ledger, router, addRouter, stop: stopAll };
  } catch (err) {
    await stopAll();
    throw err;
  }
}
