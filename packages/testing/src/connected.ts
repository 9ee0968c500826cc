// A harness hands a test its client only once that client's channel is connected: on a loaded
// machine, connecting can take seconds, and it belongs to the start (with its long timeout), not to
// the first test's call and its short deadline.

/** How long a harness waits for its client to connect before it gives up on the start. */
const HARNESS_CONNECT_MS = 30_000;

/** Resolves with `harness` once `client` is connected; otherwise stops the harness and rejects. */
export async function whenConnected<H extends { stop(): Promise<void> }>(
  client: { ready(deadlineMs: number): Promise<void> },
  harness: H,
  deadlineMs = HARNESS_CONNECT_MS,
): Promise<H> {
  try {
    await client.ready(deadlineMs);
    return harness;
  } catch (err) {
    await harness.stop();
    throw err;
  }
}
