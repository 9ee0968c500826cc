// Starts the real gateway app on a free loopback port against real backend addresses.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger, type Logger } from "@agentic/platform";
import { createCatalogClient, createExecutorClient, createLedgerClient, createRouterClient } from "@agentic/clients";
import type { AuthOptions } from "../src/middleware/auth";
import { createApp } from "../src/app";
import { backendChecks } from "../src/routes/health";
import { RenderedCatalogCache } from "../src/catalog/rendered-cache";

export const BASE_PATH = "/api/agentic-api";

export interface TestGateway {
  /** Origin, e.g. http://127.0.0.1:40123 */
  origin: string;
  /** Origin plus base path. */
  baseUrl: string;
  stop(): Promise<void>;
}

export interface TestGatewayOptions {
  catalogAddress: string;
  /** Ledger address; without one, authenticated routes answer 503 (nothing listens there). */
  ledgerAddress?: string;
  /** Router address; without one, recommend answers 503. */
  routerAddress?: string;
  /** Executor address; without one, execute answers 503. */
  executorAddress?: string;
  devRoutes?: boolean;
  /** Version poll of the in-memory catalog answers (default: one minute, i.e. effectively off). */
  catalogRefreshMs?: number;
  auth?: Partial<AuthOptions>;
  /** Logger of the app (default: silent). */
  logger?: Logger;
}

export async function startTestGateway(opts: TestGatewayOptions): Promise<TestGateway> {
  const catalog = createCatalogClient(opts.catalogAddress, 2_000);
  const ledgerAddress = opts.ledgerAddress ?? "127.0.0.1:1";
  const ledger = createLedgerClient(ledgerAddress, 2_000);
  const router = createRouterClient(opts.routerAddress ?? "127.0.0.1:1", 2_000);
  const executor = createExecutorClient(opts.executorAddress ?? "127.0.0.1:1", 30_000);
  const catalogCache = new RenderedCatalogCache(async () => (await catalog.listDomains({})).catalogVersion, {
    refreshMs: opts.catalogRefreshMs ?? 60_000,
    maxEntries: 2_000,
  });
  catalogCache.start();
  const readiness = backendChecks({
    catalog: opts.catalogAddress,
    ...(opts.ledgerAddress ? { ledger: ledgerAddress } : {}),
    ...(opts.executorAddress ? { executor: opts.executorAddress } : {}),
  });
  const app = createApp({
    basePath: BASE_PATH,
    bodyLimit: "64kb",
    devRoutes: opts.devRoutes ?? true,
    catalog,
    catalogCache,
    ledger,
    router,
    executor,
    auth: opts.auth,
    readiness,
    logger: opts.logger ?? createLogger("gateway-test", "silent"),
  });
  const server: Server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: origin + BASE_PATH,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      catalogCache.stop();
      catalog.close();
      ledger.close();
      router.close();
      executor.close();
      readiness.close();
    },
  };
}
