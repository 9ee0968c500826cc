// A channel to a backend that is down keeps trying to reconnect, backing off; grpc-js alone would let
// the wait grow to two minutes, so a backend back after a long outage would stay unused that long
// while the gateway answers 503 "retry after 5 s". With the shared channel options the wait is
// capped: a TCP listener that takes each connection and drops it (the backend "down" as the channel
// sees it) records every try, and no two tries are further apart than the cap (plus its jitter),
// over an outage long enough that grpc-js's own backoff (1 s x 1.6 per try, 20% jitter) would
// certainly have waited 8 s or more.
import { createServer, type AddressInfo } from "node:net";
import { createHealthChecker } from "./health";
import { MAX_RECONNECT_BACKOFF_MS } from "./client";

/** How long the backend stays down: past grpc-js's sixth try, whose wait alone is at least 8.4 s. */
const OUTAGE_MS = 30_000;
/**
 * grpc-js adds up to 20% jitter to each wait; 2 s more for a loaded machine's late timers (7.4 s was
 * seen with two test files running beside other work), still under the 8.4 s the uncapped sixth wait takes at least.
 */
const LONGEST_GAP_MS = MAX_RECONNECT_BACKOFF_MS * 1.2 + 2_000;

it(
  "retries a backend that is down at least every few seconds, however long the outage",
  async () => {
    const tries: number[] = [];
    const down = createServer((socket) => {
      tries.push(Date.now());
      socket.destroy();
    });
    await new Promise<void>((resolve) => down.listen(0, "127.0.0.1", resolve));
    const { port } = down.address() as AddressInfo;
    const checker = createHealthChecker(`127.0.0.1:${port}`);
    const started = Date.now();
    let ended = started;
    try {
      // Calls keep coming, as a gateway's do; each fails at once while the channel is not connected.
      while (Date.now() - started < OUTAGE_MS) await Promise.all([checker.check(200), new Promise((r) => setTimeout(r, 250))]);
      ended = Date.now();
    } finally {
      checker.close();
      await new Promise<void>((resolve) => down.close(() => resolve()));
    }
    // Between two tries, and from the last one to the end of the outage.
    const times = [...tries, ended];
    const gaps = times.slice(1).map((at, i) => at - times[i]!);
    expect(tries.length).toBeGreaterThanOrEqual(OUTAGE_MS / LONGEST_GAP_MS);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(LONGEST_GAP_MS);
  },
  OUTAGE_MS + 10_000,
);
