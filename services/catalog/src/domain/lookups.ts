// The public not-found errors of a domain or capability the catalog does not have (rpc/answers.ts raises them).
import { notFound } from "@agentic/platform/core";

/** The error for a domain that does not exist. */
export const domainNotFound = (domainKey: string): Error =>
  notFound("DOMAIN_NOT_FOUND", `domain '${domainKey}' does not exist`, "List the domains with GET /domains.");

/** The error for a capability that does not exist in a domain that does. */
export const capabilityNotFound = (domainKey: string, capabilityId: string): Error =>
  notFound(
    "CAPABILITY_NOT_FOUND",
    `capability '${capabilityId}' does not exist in domain '${domainKey}'`,
    `List the capabilities with GET /domains/${domainKey}/capabilities.`,
  );
