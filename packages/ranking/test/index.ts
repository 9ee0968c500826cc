// Test helpers of the ranking: catalog record builders and a fake outcome feed.
export * from "./routes";
export * from "./fake-outcome-feed";
