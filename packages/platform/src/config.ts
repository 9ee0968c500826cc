// Reads a service's configuration once from the environment, validated by a zod schema.
import { z } from "zod";
import { StartupError } from "./errors";

/** Thrown when the environment does not satisfy a service's config schema; lists every problem. */
export class ConfigError extends StartupError {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n${problems.map((p) => `  - ${p}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

/**
 * Parses `env` (default `process.env`) with `schema` and returns the typed config.
 * Collects all problems before failing, so one start shows everything that is wrong.
 */
export function loadConfig<S extends z.ZodType>(schema: S, env: NodeJS.ProcessEnv = process.env): z.infer<S> {
  const result = schema.safeParse(env);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => `${issue.path.join(".") || "(env)"}: ${issue.message}`);
  throw new ConfigError(problems);
}

/** `APP_ENV`: "production" turns off development helpers and requires real dependencies. */
export const appEnvSchema = z.enum(["development", "test", "production"]).default("development");

/**
 * `APP_ENV` where it opens development helpers (dev routes, dev-only callers): no default, so a
 * deployment that forgets it gets none of them. Read it with devHelpersEnabled().
 */
export const explicitAppEnvSchema = z.enum(["development", "test", "production"]).optional();

/** Development helpers exist only when APP_ENV says development or test explicitly; unset is not development. */
export function devHelpersEnabled(appEnv: string | undefined): boolean {
  return appEnv === "development" || appEnv === "test";
}

/** A `host:port` address of a gRPC dependency (e.g. `ledger:50051`). */
export const addressSchema = z.string().regex(/^[^\s:]+:\d{1,5}$/, "must be host:port, e.g. ledger:50051");

/** A TCP port, given as a string in the environment. */
export const portSchema = z.coerce.number().int().min(0).max(65535);

/** `LOG_LEVEL`: a pino level; `silent` turns logging off. */
export const logLevelSchema = z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info");

/** `NATS_STREAM_REPLICAS`: copies of the EXECUTIONS stream (1 on one server, 3 on a 3-node cluster). */
export const streamReplicasSchema = z.coerce.number().int().min(1).max(5).default(1);

/** `API_BASE_PATH`: the REST base path, e.g. /api/agentic-api (starts with /, no trailing or double /). */
export const basePathSchema = z
  .string()
  .regex(/^(\/[A-Za-z0-9_-]+)+$/, "must look like /api/agentic-api (segments of letters, digits, - or _)")
  .default("/api/agentic-api");
