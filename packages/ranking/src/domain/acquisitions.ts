// The one relationship recommend cannot read from the catalog: which capability acquires the
// resource that another capability's byo routes run on. It is inherently specific (an inbox is
// bought in order to send from it); the routes on both sides come from the catalog, matched by provider.

/** A capability whose byo routes run on a resource the caller first acquires through another capability. */
export interface OwnedResourceRelationship {
  /** The capability being recommended, e.g. "email.send". */
  capabilityKey: string;
  /** The capability that acquires the resource, e.g. "email.inbox.buy". */
  acquisitionCapabilityKey: string;
  /** Its catalog path, as the catalog publishes it: domain "email", capability "inbox-buy". */
  acquisitionDomainKey: string;
  acquisitionCapabilityId: string;
  /** Execute field that names the acquired resource, e.g. "inboxId". */
  resourceField: string;
  /** What the resource is called in readable text. */
  resourceLabel: string;
  /** workflowType of the resulting WorkflowRecommendation. */
  workflowType: string;
}

export const OWNED_RESOURCE_RELATIONSHIPS: readonly OwnedResourceRelationship[] = [
  {
    capabilityKey: "email.send",
    acquisitionCapabilityKey: "email.inbox.buy",
    acquisitionDomainKey: "email",
    acquisitionCapabilityId: "inbox-buy",
    resourceField: "inboxId",
    resourceLabel: "inbox",
    workflowType: "acquire_inbox_then_send",
  },
  {
    capabilityKey: "broadcast.message.send",
    acquisitionCapabilityKey: "broadcast.profile.link",
    acquisitionDomainKey: "broadcast",
    acquisitionCapabilityId: "profile-link",
    resourceField: "profileId",
    resourceLabel: "own social profile",
    workflowType: "link_profile_then_send",
  },
];

/** The relationship of `capabilityKey`, if its byo routes may run on an acquired resource. */
export function ownedResourceRelationship(capabilityKey: string): OwnedResourceRelationship | undefined {
  return OWNED_RESOURCE_RELATIONSHIPS.find((r) => r.capabilityKey === capabilityKey);
}
