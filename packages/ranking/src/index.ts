// The ranking both the router (recommend) and the executor (execute) run: the pure domain, the use
// cases, and the adapters of the shared state it reads (route health from executions.outcome, the
// router's KV buckets, the vendor quota counters).
export * from "./domain/index";
export * from "./recommend";
export * from "./stored-recommendation-read";
export * from "./settings";
export * from "./bus/outcome-consumer";
export * from "./bus/route-health-feed";
export * from "./quota/kv-quota-reader";
export * from "./store/answer-json";
export * from "./store/bucket-names";
export * from "./store/kv-bucket";
export * from "./store/preference-kv";
export * from "./store/recommendation-kv";
export * from "./store/read-only-bucket";
