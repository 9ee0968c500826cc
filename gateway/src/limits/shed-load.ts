// Load shedding: when the gateway is saturated, a new request is refused at once with 503
// OVERLOADED and Retry-After, instead of joining a queue where every caller waits seconds (Little's
// law: at a fixed throughput, more requests in flight only means more waiting). Saturated means
// more requests in flight than the cap, or an event loop lagging more than the threshold (then the
// process is out of CPU and everything queued is late). Mounted after /healthz, /readyz and
// /metrics, so probes and scrapes are never shed.
import { monitorEventLoopDelay, performance } from "node:perf_hooks";
import type { RequestHandler } from "express";
import { HttpError, sendErrorResponse } from "../errors";
import type { GatewayMetrics } from "../metrics";

export interface SheddingOptions {
  /** Most requests in flight at once; 0: no cap. */
  maxInFlight: number;
  /** Mean event-loop delay (ms) over a sample window beyond which new requests are shed; 0: off. */
  maxEventLoopDelayMs: number;
  /** Length of one sample window of the event-loop delay, in ms. */
  sampleMs: number;
}

export interface LoadShedder {
  middleware: RequestHandler;
  /** Requests in flight now. */
  inFlight(): number;
  /** Stops the event-loop monitor. */
  close(): void;
}

/** Timer interval of the delay monitor; each sample records its whole interval, delay included. */
const RESOLUTION_MS = 10;

export function createLoadShedder(opts: SheddingOptions, metrics: Pick<GatewayMetrics, "requestShed" | "inFlightFrom">): LoadShedder {
  let inFlight = 0;
  metrics.inFlightFrom(() => inFlight);
  const monitor = opts.maxEventLoopDelayMs > 0 ? monitorEventLoopDelay({ resolution: RESOLUTION_MS }) : undefined;
  monitor?.enable();
  let lagging = false;
  let windowStart = performance.now();

  // Evaluated by arriving requests, once per window: no timer of its own, and a decision is always
  // made from the samples of the window just ended, stalls included.
  const eventLoopLags = (): boolean => {
    if (!monitor) return false;
    const now = performance.now();
    if (now - windowStart >= opts.sampleMs) {
      const meanDelayMs = monitor.count > 0 ? monitor.mean / 1e6 - RESOLUTION_MS : 0;
      lagging = meanDelayMs > opts.maxEventLoopDelayMs;
      monitor.reset();
      windowStart = now;
    }
    return lagging;
  };

  const middleware: RequestHandler = (_req, res, next) => {
    const reason = opts.maxInFlight > 0 && inFlight >= opts.maxInFlight ? "in_flight" : eventLoopLags() ? "event_loop" : undefined;
    if (reason) {
      metrics.requestShed(reason);
      // 1–3 s, spread so that the clients shed together do not all come back in the same second.
      res.setHeader("Retry-After", String(1 + Math.floor(Math.random() * 3)));
      sendErrorResponse(
        res,
        new HttpError(
          503,
          "OVERLOADED",
          "The gateway is overloaded and did not start this request.",
          "Retry after the Retry-After seconds, with backoff; nothing was done or charged.",
        ),
      );
      return;
    }
    inFlight++;
    // 'close' comes once per response: sent in full, or cut off by the client.
    res.once("close", () => inFlight--);
    next();
  };

  return { middleware, inFlight: () => inFlight, close: () => monitor?.disable() };
}
