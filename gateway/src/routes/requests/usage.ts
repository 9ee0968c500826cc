// The queries of GET /usage (and /usage/export) and GET /usage/summary, declared once: the routes
// parse with these objects and the OpenAPI document describes them (openapi/parameters.ts).
import { z } from "zod";
import { MAX_AGENT_NAME_LENGTH } from "@agentic/platform";
import { hinted } from "../../http/request-schema";
import { agentNameValue, wholeNumberInQuery } from "./values";

const USAGE_LIMIT = { min: 1, max: 100, default: 20 } as const;
/** How many of the latest charges GET /overview carries. */
const OVERVIEW_LATEST = { min: 1, max: 100, default: 10 } as const;
/** What GET /usage?kind= accepts: an execution's charge, or a credit movement. */
export const USAGE_KINDS = ["charge", "grant", "refund", "adjustment", "top_up"] as const;
const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,1024}$/;
const CAPABILITY_KEY_PATTERN = /^[a-z0-9][a-z0-9._-]{0,127}$/;
/** An RFC 3339 date-time with its offset (2026-11-01T00:00:00Z). */
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/i;

const notInteger = `must be an integer from ${USAGE_LIMIT.min} to ${USAGE_LIMIT.max}`;
const outOfRange = `must be from ${USAGE_LIMIT.min} to ${USAGE_LIMIT.max}`;
const limit = hinted(
  wholeNumberInQuery(USAGE_LIMIT.min, USAGE_LIMIT.max, notInteger, outOfRange)
    .default(USAGE_LIMIT.default)
    .meta({ description: "Maximum number of items. Out of range answers 400 INVALID_INPUT." }),
  `Send ?limit= with a whole number from ${USAGE_LIMIT.min} to ${USAGE_LIMIT.max}.`,
  { ownsRepeats: true },
);

const cursor = hinted(
  z.string().regex(CURSOR_PATTERN, { error: "is not a cursor of this list" }).optional().meta({
    description:
      "`nextCursor` of the previous page, as it was given; absent for the newest page. Any other value answers 400 INVALID_INPUT.",
  }),
  "Send nextCursor exactly as the previous page gave it.",
);

/** `from` or `to`: an RFC 3339 date-time with its offset, read as a Date. */
function time(name: "from" | "to", description: string, example: string) {
  const problem = "must be an RFC 3339 date-time with an offset";
  return hinted(
    z
      .string()
      .refine((raw) => DATE_TIME.test(raw) && !Number.isNaN(new Date(raw).getTime()), { error: problem })
      .transform((raw) => new Date(raw))
      .optional()
      .meta({ format: "date-time", description, example }),
    `Send ?${name}= like 2026-11-01T00:00:00Z (a + offset as %2B).`,
  );
}

/** Normalized as the executions' Agent-Name was (the length is the platform's rule for every agent name). */
const agentName = hinted(
  agentNameValue().optional().meta({
    description: "Only executions made with this `Agent-Name`.",
    minLength: 1,
    maxLength: MAX_AGENT_NAME_LENGTH,
    example: "alpha_agent",
  }),
  "Send the Agent-Name the executions were made with.",
);

const capabilityKey = hinted(
  z
    .string()
    .regex(CAPABILITY_KEY_PATTERN, { error: "must be a capability key, e.g. email.send" })
    .optional()
    .meta({ description: "Only executions of this capability.", example: "email.send" }),
  "Send a capabilityKey as usage items show it.",
);

const kind = hinted(
  z
    .enum(USAGE_KINDS, { error: `must be one of ${USAGE_KINDS.join(", ")}` })
    .optional()
    .meta({ description: "Only items of this kind." }),
  "Send one kind, or leave kind out for all.",
);

/** GET /usage's query (GET /usage/export takes the same); any other parameter is a 400. */
export const usageQuery = z.object({
  limit,
  cursor,
  from: time(
    "from",
    "Only items created at or after this time (RFC 3339, with its offset; a `+` offset is sent as `%2B`).",
    "2026-11-01T00:00:00Z",
  ),
  to: time("to", "Only items created before this time (RFC 3339, with its offset); after `from`.", "2026-12-01T00:00:00Z"),
  agentName,
  capabilityKey,
  kind,
});

/** GET /usage/summary's query: the range and the filters of GET /usage, no paging. */
export const summaryQuery = usageQuery.pick({ from: true, to: true, agentName: true, capabilityKey: true });

const latestProblem = `must be an integer from ${OVERVIEW_LATEST.min} to ${OVERVIEW_LATEST.max}`;
const latest = hinted(
  wholeNumberInQuery(OVERVIEW_LATEST.min, OVERVIEW_LATEST.max, latestProblem)
    .default(OVERVIEW_LATEST.default)
    .meta({ description: `How many of the newest charges \`latestCharges\` carries, ${OVERVIEW_LATEST.min} to ${OVERVIEW_LATEST.max}.` }),
  `Send ?latest= with a whole number from ${OVERVIEW_LATEST.min} to ${OVERVIEW_LATEST.max}, or leave it out for ${OVERVIEW_LATEST.default}.`,
);

/** GET /overview's query: the spend's range, and how many of the latest charges to carry. */
export const overviewQuery = usageQuery.pick({ from: true, to: true }).extend({ latest });
