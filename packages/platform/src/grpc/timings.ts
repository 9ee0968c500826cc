// The connection timers of every gRPC server and channel, in one place. Keepalive: a ping every
// GRPC_KEEPALIVE_TIME_MS, answered within GRPC_KEEPALIVE_TIMEOUT_MS, so a channel notices a dead
// peer. Connection age: a server sends GOAWAY after GRPC_MAX_CONNECTION_AGE_MS, so clients re-resolve
// DNS and reach pods a scale-out added; the calls still on that connection then finish within a grace
// that each server derives from the longest call it accepts, so recycling never cuts one (an execute
// may run for its whole budget). Defaults are production's; a value that is not a positive whole
// number stops the process at start with the variable's name.

export interface GrpcTimings {
  keepaliveTimeMs: number;
  keepaliveTimeoutMs: number;
  maxConnectionAgeMs: number;
}

const DEFAULTS: Record<keyof GrpcTimings, [variable: string, ms: number]> = {
  keepaliveTimeMs: ["GRPC_KEEPALIVE_TIME_MS", 30_000],
  keepaliveTimeoutMs: ["GRPC_KEEPALIVE_TIMEOUT_MS", 10_000],
  maxConnectionAgeMs: ["GRPC_MAX_CONNECTION_AGE_MS", 5 * 60_000],
};

/** The longest call a server accepts unless it says otherwise: the platform's unary deadlines are seconds. */
export const DEFAULT_LONGEST_CALL_MS = 25_000;
/** Room after the longest call before a recycled connection is closed: its answer's way back. */
export const CONNECTION_AGE_GRACE_MARGIN_MS = 5_000;

export function grpcTimings(env: NodeJS.ProcessEnv = process.env): GrpcTimings {
  const read = ([variable, fallback]: [string, number]): number => {
    const raw = env[variable]?.trim();
    if (raw === undefined || raw === "") return fallback;
    const value = Number(raw);
    if (!Number.isSafeInteger(value) || value <= 0) throw new Error(`${variable} must be a positive whole number of ms, not "${raw}"`);
    return value;
  };
  return {
    keepaliveTimeMs: read(DEFAULTS.keepaliveTimeMs),
    keepaliveTimeoutMs: read(DEFAULTS.keepaliveTimeoutMs),
    maxConnectionAgeMs: read(DEFAULTS.maxConnectionAgeMs),
  };
}

/** How long a recycled connection stays open for the calls it carries: the longest call, and the margin. */
export function connectionAgeGraceMs(longestCallMs: number): number {
  return longestCallMs + CONNECTION_AGE_GRACE_MARGIN_MS;
}
