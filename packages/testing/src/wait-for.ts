// Bounded polling for state that announces itself with no event (a wallet balance, a route's
// health): every test waits through here rather than sleeping a fixed time.

export interface WaitForOptions {
  /** Give up after this many ms (default 5000). */
  timeoutMs?: number;
  /** Check every this many ms (default 20). */
  intervalMs?: number;
  /** What is awaited, for the error message. */
  what?: string;
}

/** Resolves as soon as `check` holds; rejects after `timeoutMs`, naming `what`. */
export async function waitFor(check: () => boolean | Promise<boolean>, opts: WaitForOptions = {}): Promise<void> {
  const { timeoutMs = 5_000, intervalMs = 20, what = "the condition" } = opts;
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
