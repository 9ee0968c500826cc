// Graceful shutdown: stop hooks run in reverse order of registration (mirror of startup),
// each bounded by one overall deadline.
import { StartupError } from "./errors";
import type { Logger } from "./logger";

type StopHook = { name: string; run: () => unknown | Promise<unknown> };

export class Lifecycle {
  private readonly hooks: StopHook[] = [];
  private stopping: Promise<void> | undefined;

  constructor(private readonly opts: { deadlineMs: number; logger?: Logger }) {}

  /** Registers a stop hook; the last registered runs first. */
  onStop(name: string, run: StopHook["run"]): void {
    this.hooks.push({ name, run });
  }

  /** Runs every hook once (LIFO); later calls return the same promise. */
  stop(reason = "stop"): Promise<void> {
    this.stopping ??= this.runHooks(reason);
    return this.stopping;
  }

  /** Closes `resource` on stop (in reverse order of registration, like every hook) and returns it. */
  closing<T extends { close(): unknown }>(name: string, resource: T): T {
    this.onStop(name, () => resource.close());
    return resource;
  }

  /** Stops on the given signals, then exits the process (code 0 when every hook finished in time). */
  listen(signals: NodeJS.Signals[] = ["SIGTERM", "SIGINT"]): void {
    for (const signal of signals) {
      process.once(signal, () => {
        this.opts.logger?.info({ signal }, "shutting down");
        this.stop(signal).then(
          () => process.exit(0),
          () => process.exit(1),
        );
      });
    }
  }

  private async runHooks(reason: string): Promise<void> {
    const deadline = new Promise<"timeout">((resolve) => setTimeout(() => resolve("timeout"), this.opts.deadlineMs).unref());
    const all = (async () => {
      for (const hook of [...this.hooks].reverse()) {
        try {
          await hook.run();
        } catch (err) {
          this.opts.logger?.error({ err, hook: hook.name, reason }, "stop hook failed");
        }
      }
    })();
    if ((await Promise.race([all, deadline])) === "timeout") {
      this.opts.logger?.error({ deadlineMs: this.opts.deadlineMs }, "shutdown deadline exceeded");
      throw new Error("shutdown deadline exceeded");
    }
  }
}

/**
 * Runs a service's main(): a start-up failure ends the process with code 1 and one line on stderr
 * (a StartupError, such as a ConfigError, says what to fix; anything else is printed whole, as it is unexpected).
 */
export function runMain(service: string, main: () => Promise<void>): void {
  main().catch((err: unknown) => {
    if (err instanceof StartupError) console.error(`${service}: ${err.message}`);
    else console.error(`${service}: failed to start`, err);
    process.exit(1);
  });
}
