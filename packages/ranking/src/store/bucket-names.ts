// The names of the router's JetStream KV buckets (NATS permissions in deploy/k8s/components/nats/auth.conf
// name them too), apart from their adapters so the configuration can list them without loading NATS.

/** Answered recommendations by recommendationId. */
export const RECOMMENDATIONS_BUCKET = "router_recommendations";

/** Each agent's last explicit preferences by user and agentName, and each user's index of remembered names. */
export const PREFERENCES_BUCKET = "router_preferences";
