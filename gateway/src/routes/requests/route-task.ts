// The body of POST /route and POST /domains/{domainKey}/route, declared once: the route parses with it
// and the document's RouteTaskRequest is built from it.
import { z } from "zod";
import { hinted } from "../../http/request-schema";

/** Longest task accepted, in characters; the most matches one answer lists. */
export const TASK_MAX_LENGTH = 2_000;
export const ROUTE_LIMIT_MAX = 20;
export const ROUTE_LIMIT_DEFAULT = 5;

const EMPTY = "must not be empty";
const TOO_LONG = `must be at most ${TASK_MAX_LENGTH} characters`;

const task = hinted(
  z
    .string({ error: (issue) => (issue.input === undefined ? "is required" : "must be a string") })
    .min(1, { error: EMPTY })
    .refine((text) => text.trim() !== "", { error: EMPTY })
    .max(TASK_MAX_LENGTH, { error: TOO_LONG })
    .meta({
      description: `What you want done, in words (1-${TASK_MAX_LENGTH} characters), e.g. "tell ana@example.com the invoice is attached".`,
    }),
  (issue) =>
    issue.message === EMPTY
      ? 'Describe the task in words, e.g. "send an email to ana@example.com".'
      : issue.message === TOO_LONG
        ? "Describe the task in fewer words."
        : 'Send {"task": "<what you want done, in words>"}.',
);

const notALimit = `must be a whole number from 1 to ${ROUTE_LIMIT_MAX}`;
const limit = hinted(
  z
    .number({ error: notALimit })
    .int({ error: notALimit })
    .min(1, { error: notALimit })
    .max(ROUTE_LIMIT_MAX, { error: notALimit })
    .default(ROUTE_LIMIT_DEFAULT)
    .meta({ description: `Matches to list, 1-${ROUTE_LIMIT_MAX} (default ${ROUTE_LIMIT_DEFAULT}).` }),
  `Send limit between 1 and ${ROUTE_LIMIT_MAX}, or leave it out (${ROUTE_LIMIT_DEFAULT}).`,
);

/** `task` and `limit`; a null field reads as left out, any other field is refused by name (parseRouteTask). */
export const routeTaskBody = z.strictObject({ task, limit }).meta({ description: "A task in words, for intent routing." });

export const ROUTE_TASK_UNKNOWN_FIELD = {
  problem: "is not a field of a route request",
  hint: 'Send {"task": "<what you want done>", "limit": 5}.',
};
