// Starts a real catalog gRPC server on a free loopback port, for this service's tests and for
// other services' integration tests (as @agentic/catalog/testing). Also what those tests read the
// catalog data with directly: the shipped folder, the loader, and the catalog's readiness rule for
// routes they build by hand.
import { createLogger } from "@agentic/platform";
import { createCatalogClient, type CatalogClient } from "@agentic/clients";
import { whenConnected } from "@agentic/testing";
import { startCatalogApp } from "../src/app";
import type { ServedCatalog } from "../src/compiled";

export { routeReadiness } from "../src/domain";
export { DEFAULT_CATALOG_DIR, loadCatalog } from "../src/source";

export interface TestCatalog {
  /** host:port of the running server. */
  address: string;
  /** The catalog served, in its compiled form (its CatalogIndex methods decode the answers it sends). */
  catalog: ServedCatalog;
  /** Promise-returning client of the server. */
  call: CatalogClient;
  stop(): Promise<void>;
}

/**
 * Starts the catalog on `catalogDir` (default: the shipped catalog), on a free port unless
 * `bindAddress` names one (a test restarting the catalog with other data under its clients).
 */
export async function startTestCatalog(
  opts: { catalogDir?: string; basePath?: string; bindAddress?: string; compiledDir?: string } = {},
): Promise<TestCatalog> {
  const app = await startCatalogApp({
    catalogDir: opts.catalogDir,
    // Compiled in memory unless a test names a folder: tests leave no artifacts behind.
    compiledDir: opts.compiledDir ?? false,
    basePath: opts.basePath,
    logger: createLogger("catalog-test", "silent"),
    bindAddress: opts.bindAddress ?? "127.0.0.1:0",
    grpcStopGraceMs: 2_000,
  });
  const address = `127.0.0.1:${app.port}`;
  const call = createCatalogClient(address);
  return whenConnected(call, {
    address,
    catalog: app.catalog,
    call,
    async stop() {
      call.close();
      await app.stop();
    },
  });
}

/**
 * Writes a catalog `times` the size of the shipped one into `outDir` (what `npm run catalog:generate`
 * writes): 17 x `times` domains, each a renamed copy of a shipped one, valid for the loader. With
 * `wide`, also domain `wide` whose capability fanout.lookup has that many live routes.
 */
export function generateTestCatalog(times: number, outDir: string, options: { wide?: number } = {}): { domains: string[] } {
  // A plain script (run by npm run catalog:generate), so required rather than imported.
  const { generateCatalog } = require("../scripts/generate-catalog.js") as {
    generateCatalog(times: number, outDir: string, options: { wide?: number }): { domains: string[] };
  };
  return generateCatalog(times, outDir, options);
}
