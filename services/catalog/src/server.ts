// Builds the catalog gRPC server (CatalogService + health); binding is the caller's job. Each
// handler answers with the compiled answer's bytes, which the service definition below sends as they
// are: serving encodes nothing (an answer that is not bytes yet is encoded as usual).
import type { Server, ServiceDefinition, UntypedHandleCall } from "@grpc/grpc-js";
import { createGrpcServer, unary, type Health, type Logger } from "@agentic/platform";
import { CatalogServiceService, type CatalogServiceServer } from "@agentic/proto/catalog/v1";
import type { ServedCatalog } from "./compiled";
import { listDomains } from "./rpc/list-domains";
import { getDomain } from "./rpc/get-domain";
import { listCapabilities } from "./rpc/list-capabilities";
import { getCapability } from "./rpc/get-capability";
import { listDomainRoutes } from "./rpc/list-domain-routes";
import { listCapabilityRoutes } from "./rpc/list-capability-routes";
import { getContract } from "./rpc/get-contract";
import { getCatalogSummary } from "./rpc/get-catalog-summary";
import { getCatalogVersion } from "./rpc/get-catalog-version";
import { filterCapabilities, filterRoutes } from "./rpc/filter-lists";
import { listCapabilityEntries } from "./rpc/list-capability-entries";

export const CATALOG_SERVICE_NAME = "agentic.catalog.v1.CatalogService";
/**
 * Calls one client connection runs at once; its others wait in the client (HTTP/2
 * SETTINGS_MAX_CONCURRENT_STREAMS). A safeguard: the caches of this repository read a few domains at a
 * time, but a client reading every domain of a catalog 100x today's at once (1,717 calls) took the
 * catalog's heap from 23 to 126 MB and the same load twice as long (bench: docs/performance.md).
 */
const MAX_CALLS_PER_CONNECTION = 32;

export interface CatalogServerDeps {
  catalog: ServedCatalog;
  health: Health;
  logger: Logger;
}

export function createCatalogServer({ catalog, health, logger }: CatalogServerDeps): Server {
  const server = createGrpcServer({}, { "grpc.max_concurrent_streams": MAX_CALLS_PER_CONNECTION });
  const impl: Record<keyof CatalogServiceServer, UntypedHandleCall> = {
    listDomains: unary(listDomains(catalog), logger),
    getDomain: unary(getDomain(catalog), logger),
    listCapabilities: unary(listCapabilities(catalog), logger),
    getCapability: unary(getCapability(catalog), logger),
    listDomainRoutes: unary(listDomainRoutes(catalog), logger),
    listCapabilityRoutes: unary(listCapabilityRoutes(catalog), logger),
    getContract: unary(getContract(catalog), logger),
    getCatalogSummary: unary(getCatalogSummary(catalog), logger),
    getCatalogVersion: unary(getCatalogVersion(catalog), logger),
    filterCapabilities: unary(filterCapabilities(catalog), logger),
    filterRoutes: unary(filterRoutes(catalog), logger),
    listCapabilityEntries: unary(listCapabilityEntries(catalog), logger),
  };
  server.addService(sendingEncodedAnswers(CatalogServiceService), impl);
  health.addToServer(server);
  return server;
}

/** `definition` whose answers, when already encoded (a Buffer), are sent as they are. */
function sendingEncodedAnswers(definition: ServiceDefinition): ServiceDefinition {
  return Object.fromEntries(
    Object.entries(definition).map(([name, method]) => [
      name,
      { ...method, responseSerialize: (answer: unknown) => (Buffer.isBuffer(answer) ? answer : method.responseSerialize(answer)) },
    ]),
  );
}
