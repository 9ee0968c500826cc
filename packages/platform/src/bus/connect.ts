// Connection to NATS with a name (visible in server monitoring) and endless reconnects; as a NATS
// user when credentials are given, receiving replies on that user's own inbox prefix (_INBOX_<user>),
// the only inbox the shipped authorization (deploy/k8s/components/nats/auth.conf) lets it read.
import { connect, type NatsConnection } from "nats";
import { z } from "zod";
import { streamReplicasSchema } from "../config";

export interface NatsCredentials {
  user: string;
  pass: string;
}

/** Connection options of a NATS user: its credentials and its own inbox prefix (none without credentials). */
export function natsAuthOptions(credentials?: NatsCredentials): { user?: string; pass?: string; inboxPrefix?: string } {
  return credentials ? { user: credentials.user, pass: credentials.pass, inboxPrefix: `_INBOX_${credentials.user}` } : {};
}

export function connectBus(url: string, name: string, credentials?: NatsCredentials): Promise<NatsConnection> {
  return connect({
    servers: url.split(","),
    name,
    maxReconnectAttempts: -1,
    reconnectTimeWait: 500,
    // Without it every request (each JetStream publish: two per execute) captures two stack traces up
    // front for a timeout that rarely comes; a timeout is still a NatsError with the same code.
    noAsyncTraces: true,
    ...natsAuthOptions(credentials),
  });
}

/** `NATS_USER` / `NATS_PASSWORD`: the service's NATS user (e.g. `ledger`) and its password, from a Secret. */
export const natsCredentialsShape = {
  /** The service's NATS user, e.g. `ledger`; with NATS_PASSWORD. Required when APP_ENV=production. */
  NATS_USER: z
    .string()
    .regex(/^[a-z][a-z0-9-]*$/, "must be a user name such as ledger")
    .optional(),
  /** That user's password, from a Secret. */
  NATS_PASSWORD: z.string().min(1).optional(),
};

/**
 * The bus settings of every service that publishes or consumes on EXECUTIONS (spread into its config
 * schema): the server(s), the stream's copies, and the service's NATS user.
 */
export const busConfigShape = {
  /** NATS server(s), comma-separated. Example: nats://nats:4222. Required. */
  NATS_URL: z.string().min(1, { error: "NATS_URL is required, e.g. nats://127.0.0.1:4222" }),
  /** Copies of the EXECUTIONS stream this service creates (or raises an existing one to): 1 on one server, 3 on a 3-node JetStream cluster. */
  NATS_STREAM_REPLICAS: streamReplicasSchema,
  ...natsCredentialsShape,
};

/** Both or neither; both in production, where NATS runs with authorization. */
export function checkNatsCredentials(c: { NATS_USER?: string; NATS_PASSWORD?: string; APP_ENV?: string }, ctx: z.RefinementCtx): void {
  if (c.NATS_USER && !c.NATS_PASSWORD) ctx.addIssue({ code: "custom", path: ["NATS_PASSWORD"], message: "required with NATS_USER" });
  if (!c.NATS_USER && c.NATS_PASSWORD) ctx.addIssue({ code: "custom", path: ["NATS_USER"], message: "required with NATS_PASSWORD" });
  if (c.APP_ENV === "production" && !c.NATS_USER && !c.NATS_PASSWORD) {
    ctx.addIssue({
      code: "custom",
      path: ["NATS_USER"],
      message: "NATS_USER and NATS_PASSWORD are required when APP_ENV=production (NATS runs with authorization)",
    });
  }
}

/** The credentials of a config checked with checkNatsCredentials, or undefined when it names none. */
export function natsCredentialsOf(c: { NATS_USER?: string; NATS_PASSWORD?: string }): NatsCredentials | undefined {
  return c.NATS_USER && c.NATS_PASSWORD ? { user: c.NATS_USER, pass: c.NATS_PASSWORD } : undefined;
}
