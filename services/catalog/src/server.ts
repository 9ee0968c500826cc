// Builds the catalog gRPC server (CatalogService + health); binding is the caller's job.
import type { Server } from "@grpc/grpc-js";
import { createGrpcServer, unary, type Health, type Logger } from "@agentic/platform";
import { CatalogServiceService, type CatalogServiceServer } from "@agentic/proto/catalog/v1";
import type { CatalogIndex } from "./domain";
import { listDomains } from "./rpc/list-domains";
import { getDomain } from "./rpc/get-domain";
import { listCapabilities } from "./rpc/list-capabilities";
import { getCapability } from "./rpc/get-capability";
import { listDomainRoutes } from "./rpc/list-domain-routes";
import { listCapabilityRoutes } from "./rpc/list-capability-routes";
import { getContract } from "./rpc/get-contract";
import { getCatalogSummary } from "./rpc/get-catalog-summary";
import { getCatalogVersion } from "./rpc/get-catalog-version";

export const CATALOG_SERVICE_NAME = "agentic.catalog.v1.CatalogService";

export interface CatalogServerDeps {
  catalog: CatalogIndex;
  health: Health;
  logger: Logger;
}

export function createCatalogServer({ catalog, health, logger }: CatalogServerDeps): Server {
  const server = createGrpcServer();
  const impl: CatalogServiceServer = {
    listDomains: unary(listDomains(catalog), logger),
    getDomain: unary(getDomain(catalog), logger),
    listCapabilities: unary(listCapabilities(catalog), logger),
    getCapability: unary(getCapability(catalog), logger),
    listDomainRoutes: unary(listDomainRoutes(catalog), logger),
    listCapabilityRoutes: unary(listCapabilityRoutes(catalog), logger),
    getContract: unary(getContract(catalog), logger),
    getCatalogSummary: unary(getCatalogSummary(catalog), logger),
    getCatalogVersion: unary(getCatalogVersion(catalog), logger),
  };
  server.addService(CatalogServiceService, impl);
  health.addToServer(server);
  return server;
}
