// Calls made during one turn of the event loop, started together at its end. nats.js writes what it
// has queued once per microtask checkpoint, so requests answered in one turn each paid a socket write
// of their own for what they published (a router's stored recommendation, an executor's settlement
// and route outcome); started back to back, their publishes share one write, and JetStream's acks
// come back in one read. The wait is at most the rest of the turn.
export function sentTogetherPerTurn<A extends unknown[], R>(call: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  let queued: Array<() => void> = [];
  const startQueued = () => {
    const starting = queued;
    queued = [];
    for (const start of starting) start();
  };
  return (...args) =>
    new Promise<R>((resolve, reject) => {
      if (queued.length === 0) setImmediate(startQueued);
      queued.push(() => {
        try {
          call(...args).then(resolve, reject);
        } catch (err) {
          reject(err);
        }
      });
    });
}
