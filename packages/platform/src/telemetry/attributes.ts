// Names of our business span attributes (the `agentic.` prefix), one constant per name.
export const ATTR_CAPABILITY_KEY = "agentic.capability.key";
export const ATTR_DOMAIN_KEY = "agentic.domain.key";
export const ATTR_ROUTE_KEY = "agentic.route.key";
export const ATTR_PROVIDER_KEY = "agentic.provider.key";
export const ATTR_NETWORK_KEY = "agentic.network.key";
export const ATTR_SETTLEMENT_RAIL = "agentic.settlement.rail";
export const ATTR_CREDITS_AMOUNT = "agentic.credits.amount";
export const ATTR_HOLD_ID = "agentic.hold.id";
export const ATTR_USER_ID = "agentic.user.id";
