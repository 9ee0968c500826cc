// Promise-returning client of the catalog service; every call has a deadline.
import { channelReady, createClient, promisifyUnary, type CallIdentity } from "@agentic/platform";
import { CatalogServiceClient } from "@agentic/proto/catalog/v1";

export type CatalogClient = ReturnType<typeof createCatalogClient>;

/** Opens one long-lived channel to the catalog at `address` (host:port); `identity` proves the calling service on every call. */
export function createCatalogClient(address: string, deadlineMs = 2_000, identity?: CallIdentity) {
  const client = createClient(CatalogServiceClient, address, identity);
  return {
    listDomains: promisifyUnary(client, client.listDomains, deadlineMs),
    getDomain: promisifyUnary(client, client.getDomain, deadlineMs),
    listCapabilities: promisifyUnary(client, client.listCapabilities, deadlineMs),
    getCapability: promisifyUnary(client, client.getCapability, deadlineMs),
    listDomainRoutes: promisifyUnary(client, client.listDomainRoutes, deadlineMs),
    listCapabilityRoutes: promisifyUnary(client, client.listCapabilityRoutes, deadlineMs),
    getContract: promisifyUnary(client, client.getContract, deadlineMs),
    getCatalogSummary: promisifyUnary(client, client.getCatalogSummary, deadlineMs),
    getCatalogVersion: promisifyUnary(client, client.getCatalogVersion, deadlineMs),
    filterCapabilities: promisifyUnary(client, client.filterCapabilities, deadlineMs),
    filterRoutes: promisifyUnary(client, client.filterRoutes, deadlineMs),
    listCapabilityEntries: promisifyUnary(client, client.listCapabilityEntries, deadlineMs),
    /** Resolves once the channel is connected (rejects after `deadlineMs`). */
    ready: (deadlineMs: number) => channelReady(client, deadlineMs),
    close: () => client.close(),
  };
}
