// A NatsConnection stand-in (its EXECUTIONS stream exists) whose only JetStream consumer yields what
// the test pushes and can be made to fail, for the outcome consumer's failure paths (a real ordered
// consumer hides most faults).
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
  const consumer = { consume: async () => messages };
  // The EXECUTIONS stream already exists here, so ensuring it changes nothing.
  const streams = { info: async () => ({ config: { num_replicas: 1 } }) };
  const nc = {
    jetstream: () => ({ consumers: { get: async () => consumer } }),
    jetstreamManager: async () => ({ streams }),
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
