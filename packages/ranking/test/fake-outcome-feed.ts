// A NatsConnection stand-in (its EXECUTIONS stream and the router's KV buckets exist, empty; core
// subscriptions hear nothing) whose only
// JetStream consumer yields what the test pushes and can be made to fail, for the outcome consumer's
// failure paths (a real ordered consumer hides most faults).
import type { JsMsg, NatsConnection } from "nats";
import type { Logger } from "@agentic/platform";

export interface FakeOutcomeFeed {
  nc: NatsConnection;
  /** Rejects the consumer's iterator with `err` (the feed dies). */
  fail(err: Error): void;
  /** Ends the consumer's iterator without an error, as if the server closed it. */
  end(): void;
}

export function fakeOutcomeFeed(): FakeOutcomeFeed {
  let settle: ((outcome: { err?: Error }) => void) | undefined;
  const ended = new Promise<{ err?: Error }>((resolve) => (settle = resolve));
  async function* iterate(): AsyncGenerator<JsMsg> {
    const { err } = await ended;
    if (err) throw err;
  }
  const messages = Object.assign(iterate(), { stop: () => settle!({}) });
  // Nothing stored in the replay window: the replay is caught up at once.
  const consumer = { consume: async () => messages, info: async () => ({ num_pending: 0 }) };
  // A bucket as the router leaves it (created, then brought to its settings), holding nothing.
  const kv = (name: string, opts: { ttl: number; max_bytes: number }) => ({
    status: async () => ({
      streamInfo: {
        config: {
          name: `KV_${name}`,
          max_age: opts.ttl * 1_000_000,
          max_bytes: opts.max_bytes,
          discard: opts.max_bytes > 0 ? "old" : "new",
          num_replicas: 1,
        },
      },
    }),
    get: async () => null,
    put: async () => 1,
  });
  // The EXECUTIONS stream already exists here, so ensuring it changes nothing.
  const streams = { info: async () => ({ config: { num_replicas: 1 } }) };
  const nc = {
    jetstream: () => ({
      consumers: { get: async () => consumer },
      views: { kv: async (name: string, opts: { ttl: number; max_bytes: number }) => kv(name, opts) },
    }),
    jetstreamManager: async () => ({ streams }),
    // Core NATS (the router's wallet announcements): a subscription in place that hears nothing, a connection that never changes.
    subscribe: () => ({ isClosed: () => false, unsubscribe: () => undefined }),
    flush: async () => undefined,
    status: async function* () {},
  } as unknown as NatsConnection;
  return { nc, fail: (err) => settle!({ err }), end: () => settle!({}) };
}

/** A logger whose calls a test can read (error and warn are jest mocks). */
export function recordingLogger(): Logger & { error: jest.Mock; warn: jest.Mock } {
  const logger: Record<string, unknown> = {
    error: jest.fn(),
    warn: jest.fn(),
    info: jest.fn(),
    debug: jest.fn(),
    trace: jest.fn(),
    fatal: jest.fn(),
  };
  logger.child = () => logger;
  return logger as unknown as Logger & { error: jest.Mock; warn: jest.Mock };
}
