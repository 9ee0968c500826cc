// Per-key in-flight counts (the concurrency cap): in process, or shared by every gateway replica in
// Redis. rate-limiter-flexible counts requests per time window and has no notion of a request that
// is still running, so the shared count is a small script of our own: one sorted set per key, one
// member (a lease) per request in flight, scored by when the lease lapses. A replica that dies with
// requests in flight therefore leaks their slots only until their leases lapse, never for good.
import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";

export interface Slot {
  /** In flight for the key, this request included. */
  inFlight: number;
  /** Gives the slot back; call once, when the response is done or the client went away. */
  release(): void;
}

export interface InFlightCounter {
  /** Takes one of `max` slots of `key`, or resolves undefined when all are taken. */
  acquire(key: string, max: number): Promise<Slot | undefined>;
}

/** Counts in this process: exact, for one gateway (the embedded system) or a per-replica cap. */
export class MemoryInFlight implements InFlightCounter {
  private readonly counts = new Map<string, number>();

  async acquire(key: string, max: number): Promise<Slot | undefined> {
    return this.take(key, max);
  }

  /** Synchronous form of acquire, for the Redis counter's fallback. */
  take(key: string, max: number): Slot | undefined {
    const current = this.counts.get(key) ?? 0;
    if (current >= max) return undefined;
    this.counts.set(key, current + 1);
    let released = false;
    return {
      inFlight: current + 1,
      release: () => {
        if (released) return;
        released = true;
        const left = (this.counts.get(key) ?? 1) - 1;
        // Idle keys leave no entry behind, so the map holds only keys with requests in flight.
        if (left <= 0) this.counts.delete(key);
        else this.counts.set(key, left);
      },
    };
  }
}

// Redis' own clock (TIME) scores every lease, so replicas' clocks never disagree about expiry.
const ACQUIRE = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local n = redis.call('ZCARD', KEYS[1])
if n >= tonumber(ARGV[2]) then return {0, n} end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[1])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {1, n + 1}
`;

type WithAcquire = Redis & { agenticAcquireSlot(key: string, lease: string, max: number, leaseMs: number): Promise<[number, number]> };

/**
 * Counts shared through Redis (needs Redis ≥ 5 for TIME in a script). When Redis fails, the request
 * is counted in this process instead (per-replica cap) rather than refused: a store outage must not
 * take the API down. `onStoreError` hears of each failure.
 */
export class RedisInFlight implements InFlightCounter {
  private readonly redis: WithAcquire;
  private readonly fallback = new MemoryInFlight();

  constructor(
    redis: Redis,
    private readonly opts: { prefix: string; leaseMs: number; onStoreError(err: unknown): void },
  ) {
    redis.defineCommand("agenticAcquireSlot", { numberOfKeys: 1, lua: ACQUIRE });
    this.redis = redis as WithAcquire;
  }

  async acquire(key: string, max: number): Promise<Slot | undefined> {
    const setKey = `${this.opts.prefix}${key}`;
    const lease = randomUUID();
    let answer: [number, number];
    try {
      answer = await this.redis.agenticAcquireSlot(setKey, lease, max, this.opts.leaseMs);
    } catch (err) {
      this.opts.onStoreError(err);
      return this.fallback.take(key, max);
    }
    const [granted, inFlight] = answer;
    if (granted !== 1) return undefined;
    let released = false;
    return {
      inFlight,
      release: () => {
        if (released) return;
        released = true;
        // A lost release only keeps the slot until its lease lapses.
        this.redis.zrem(setKey, lease).catch((err: unknown) => this.opts.onStoreError(err));
      },
    };
  }
}
