// What a service asks of JetStream's storage: each stream or KV bucket it creates with the byte limit
// it gives it. Each service's config exports `jetStreamFootprint(config)`; the deployment checks
// (scripts/k8s/validate.mjs) add every service's and keep the sum below the NATS server's
// max_file_store, so a bucket filled by free calls can never take the EXECUTIONS stream's room.

export interface JetStreamFootprint {
  kind: "stream" | "bucket";
  name: string;
  maxBytes: number;
}
