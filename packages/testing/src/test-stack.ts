// Starts the parts of a test system one after another and stops them in reverse, also when a
// later part fails to start, so a failed start leaves no server or process behind.

/** Anything a test starts and must stop. */
export interface Stoppable {
  stop(): Promise<void>;
}

export interface TestStack {
  /** Awaits `part`, remembers to stop it, and returns it. */
  start<T extends Stoppable>(part: Promise<T>): Promise<T>;
  /** Stops everything started so far, last first; later calls stop nothing more. */
  stop(): Promise<void>;
}

export function createTestStack(): TestStack {
  const stops: Array<() => Promise<void>> = [];
  return {
    async start(part) {
      const value = await part;
      stops.push(() => value.stop());
      return value;
    },
    async stop() {
      for (const stop of stops.splice(0).reverse()) await stop();
    },
  };
}

/** Builds a system with `build(stack)`; if building fails, stops what it started and rethrows. */
export async function startTestSystem<T extends object>(build: (stack: TestStack) => Promise<T>): Promise<T & Stoppable> {
  const stack = createTestStack();
  try {
    const parts = await build(stack);
    return { ...parts, stop: () => stack.stop() };
  } catch (err) {
    await stack.stop();
    throw err;
  }
}
