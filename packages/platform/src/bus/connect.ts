// Connection to NATS with a name (visible in server monitoring) and endless reconnects.
import { connect, type NatsConnection } from "nats";

export function connectBus(url: string, name: string): Promise<NatsConnection> {
  return connect({ servers: url.split(","), name, maxReconnectAttempts: -1, reconnectTimeWait: 500 });
}
