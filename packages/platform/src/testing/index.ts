// Helpers for tests and local runs; not imported by production code paths.
export { freePort } from "./free-port";
export { startNatsServer, natsServerBin, type NatsServerHandle } from "./nats-server";
