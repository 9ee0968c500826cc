// Helpers for tests and local runs; not imported by production code paths.
export { freePort } from "./free-port";
export {
  startNatsServer,
  natsServerBin,
  natsPassword,
  NATS_AUTH_CONFIG,
  NATS_USERS,
  type NatsServerHandle,
  type StartNatsServerOptions,
  type NatsUser,
} from "./nats-server";
export { waitFor, type WaitForOptions } from "./wait-for";
export { whenConnected } from "./connected";
export { createTestStack, startTestSystem, type Stoppable, type TestStack } from "./test-stack";
export { generateDevIdentities, testIdentities, type DevIdentities } from "./identities";
