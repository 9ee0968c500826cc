// What a stop waits for: the Execute calls in flight (each holds credits, has a provider acting and a
// settlement to publish) and the work they leave behind (a result stored after the answer). Once a
// stop began the server takes no new call (app.ts); one that raced its close is refused here with
// UNAVAILABLE before anything is done, and the gateway sends it again, to another executor.
import { AppError, type UnaryHandler } from "@agentic/platform";

/** Seconds a refused caller is told to wait: another executor takes the call at once, a restarted one in seconds. */
const RETRY_AFTER_SECONDS = 1;

export interface Drain {
  /** `handler`, counted while it runs; once the drain began, a call is refused without running it. */
  admit<Req, Res>(handler: UnaryHandler<Req, Res>): UnaryHandler<Req, Res>;
  /** Counts `work` (begun by an admitted call, e.g. storing its result) until it settles; returns it. */
  follow<T>(work: Promise<T>): Promise<T>;
  /** Refuses new calls from now on; resolves once every admitted call and followed work has settled. */
  drain(): Promise<void>;
  /** Calls and followed work not settled yet. */
  readonly inFlight: number;
  readonly draining: boolean;
}

/** The refusal of a call that arrived after the stop began: nothing was held, called or charged. */
function executorDraining(): AppError {
  return new AppError(
    "unavailable",
    "EXECUTOR_DRAINING",
    "This executor is shutting down and did not start the execution. Nothing was held or charged.",
    "Send the same request again after the Retry-After seconds (with the same Idempotency-Key, if you sent one).",
    { retryAfterSeconds: RETRY_AFTER_SECONDS },
  );
}

export function createDrain(): Drain {
  let draining = false;
  let inFlight = 0;
  let idle: (() => void)[] = [];

  const done = () => {
    inFlight--;
    if (inFlight > 0) return;
    const waiting = idle;
    idle = [];
    for (const resolve of waiting) resolve();
  };

  function follow<T>(work: Promise<T>): Promise<T> {
    inFlight++;
    work.then(done, done);
    return work;
  }

  return {
    admit: (handler) => (req, ctx) => {
      if (draining) return Promise.reject(executorDraining());
      return follow(handler(req, ctx));
    },
    follow,
    drain() {
      draining = true;
      if (inFlight === 0) return Promise.resolve();
      return new Promise<void>((resolve) => idle.push(resolve));
    },
    get inFlight() {
      return inFlight;
    },
    get draining() {
      return draining;
    },
  };
}
