// Starts the real gateway app on a free loopback port against real backend addresses.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createLogger, type Logger } from "@agentic/platform";
import { createCatalogClient, createLedgerClient, createRouterClient } from "@agentic/clients";
import type { AuthOptions } from "../src/middleware/auth";
import { createApp } from "../src/app";
import { backendChecks } from "../src/routes/health";

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
  devRoutes?: boolean;
  auth?: Partial<AuthOptions>;
  /** Logger of the app (default: silent). */
  logger?: Logger;
}

export async function startTestGateway(opts: TestGatewayOptions): Promise<TestGateway> {
  const catalog = createCatalogClient(opts.catalogAddress, 2_000);
  const ledgerAddress = opts.ledgerAddress ?? "127.0.0.1:1";
  const ledger = createLedgerClient(ledgerAddress, 2_000);
  const router = createRouterClient(opts.routerAddress ?? "127.0.0.1:1", 2_000);
  const readiness = backendChecks(opts.ledgerAddress ? { catalog: opts.catalogAddress, ledger: ledgerAddress } : { catalog: opts.catalogAddress });
  const app = createApp({
    basePath: BASE_PATH,
    bodyLimit: "64kb",
    devRoutes: opts.devRoutes ?? true,
    catalog,
    ledger,
    router,
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
      catalog.close();
      ledger.close();
      router.close();
      readiness.close();
    },
  };
}
