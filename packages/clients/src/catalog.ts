// Promise-returning client of the catalog service; every call has a deadline.
import { createClient, promisifyUnary } from "@agentic/platform";
import { CatalogServiceClient } from "@agentic/proto/catalog/v1";

export type CatalogClient = ReturnType<typeof createCatalogClient>;

/** Opens one long-lived channel to the catalog at `address` (host:port). */
export function createCatalogClient(address: string, deadlineMs = 2_000) {
  const client = createClient(CatalogServiceClient, address);
  return {
    listDomains: promisifyUnary(client, client.listDomains, deadlineMs),
    getDomain: promisifyUnary(client, client.getDomain, deadlineMs),
    listCapabilities: promisifyUnary(client, client.listCapabilities, deadlineMs),
    getCapability: promisifyUnary(client, client.getCapability, deadlineMs),
    listDomainRoutes: promisifyUnary(client, client.listDomainRoutes, deadlineMs),
    listCapabilityRoutes: promisifyUnary(client, client.listCapabilityRoutes, deadlineMs),
    getContract: promisifyUnary(client, client.getContract, deadlineMs),
    getCatalogSummary: promisifyUnary(client, client.getCatalogSummary, deadlineMs),
    close: () => client.close(),
  };
}
