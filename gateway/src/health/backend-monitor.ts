// What the gateway knows of each backend's health: a gRPC health check (grpc.health.v1, service "")
// of every backend, made on demand by /readyz and every second in the background, so an error
// answered while a backend is down can name it, and state changes are logged once, not per request.
import { createHealthChecker, type Logger } from "@agentic/platform";

/** A backend as /readyz reports it: it answers SERVING, or it does not (down, refusing, not ready, too slow). */
export type BackendState = "ok" | "unavailable";

export interface BackendMonitorOptions {
  /** How long one health check may take (ms); a slower backend counts as unavailable. */
  timeoutMs: number;
  /** How often the background check runs (ms). */
  intervalMs: number;
  logger: Logger;
}

export class BackendMonitor {
  private readonly checkers: { name: string; check(timeoutMs: number): Promise<boolean>; close(): void }[];
  private readonly states = new Map<string, BackendState>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<Record<string, BackendState>> | undefined;

  /** `backends`: name → gRPC address of each backend to watch. */
  constructor(
    backends: Record<string, string>,
    private readonly opts: BackendMonitorOptions,
  ) {
    this.checkers = Object.entries(backends).map(([name, address]) => ({ name, ...createHealthChecker(address) }));
  }

  /** Checks every backend now, in parallel (concurrent callers share one round), and records the states. */
  check(): Promise<Record<string, BackendState>> {
    this.running ??= this.checkAll().finally(() => (this.running = undefined));
    return this.running;
  }

  /** The backends that failed their last check, by name. */
  unavailable(): string[] {
    return [...this.states].filter(([, state]) => state === "unavailable").map(([name]) => name);
  }

  /** Starts the background check; `afterEach` runs after every round (e.g. to warm the catalog answers). */
  start(afterEach?: (states: Record<string, BackendState>) => Promise<void>): void {
    const round = async () => {
      const states = await this.check();
      await afterEach?.(states).catch(() => undefined);
    };
    this.timer = setInterval(() => void round(), this.opts.intervalMs);
    this.timer.unref();
    void round();
  }

  close(): void {
    clearInterval(this.timer);
    for (const c of this.checkers) c.close();
  }

  private async checkAll(): Promise<Record<string, BackendState>> {
    const results = await Promise.all(
      this.checkers.map(async (c) => [c.name, (await c.check(this.opts.timeoutMs)) ? "ok" : "unavailable"] as const),
    );
    for (const [name, state] of results) this.record(name, state);
    return Object.fromEntries(results);
  }

  private record(name: string, state: BackendState): void {
    const before = this.states.get(name);
    this.states.set(name, state);
    if (before === state) return;
    // Down, or too slow to answer its health check: the calls that need it may fail meanwhile (503).
    if (state === "unavailable")
      this.opts.logger.warn({ backend: name, timeoutMs: this.opts.timeoutMs }, "backend not answering its health check");
    else if (before !== undefined) this.opts.logger.warn({ backend: name }, "backend answering its health check again");
  }
}
