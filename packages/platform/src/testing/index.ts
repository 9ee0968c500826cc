// Helpers for tests and local runs; not imported by production code paths.
export { freePort } from "./free-port";
export { startNatsServer, natsServerBin, type NatsServerHandle } from "./nats-server";
export { waitFor, type WaitForOptions } from "./wait-for";
export { createTestStack, startTestSystem, type Stoppable, type TestStack } from "./test-stack";
export { generateDevIdentities, testIdentities, type DevIdentities } from "./identities";
