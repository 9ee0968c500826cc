// Starts a real catalog gRPC server on a free loopback port, for this service's tests and for
// other services' integration tests.
import { bindServer, createHealth, createLogger, stopServer } from "@agentic/platform";
import { createCatalogClient, type CatalogClient } from "@agentic/clients";
import { DEFAULT_CATALOG_DIR, loadCatalog, type CatalogIndex } from "../src/domain";
import { CATALOG_SERVICE_NAME, createCatalogServer } from "../src/server";

export interface TestCatalog {
  /** host:port of the running server. */
  address: string;
  catalog: CatalogIndex;
  /** Promise-returning client of the server. */
  call: CatalogClient;
  stop(): Promise<void>;
}

/** Starts the catalog on `catalogDir` (default: the shipped catalog). */
export async function startTestCatalog(opts: { catalogDir?: string; basePath?: string } = {}): Promise<TestCatalog> {
  const catalog = loadCatalog(opts.catalogDir ?? DEFAULT_CATALOG_DIR, { basePath: opts.basePath });
  const health = createHealth([CATALOG_SERVICE_NAME]);
  const server = createCatalogServer({ catalog, health, logger: createLogger("catalog-test", "silent") });
  const port = await bindServer(server, "127.0.0.1:0");
  health.setServing(true);
  const address = `127.0.0.1:${port}`;
  const call = createCatalogClient(address);
  return {
    address,
    catalog,
    call,
    async stop() {
      call.close();
      await stopServer(server, 2_000);
    },
  };
}
