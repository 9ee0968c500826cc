// Values several requests share, declared once: a whole number sent in a query string, and an agent
// name read as the platform normalizes it ("Alpha" and "alpha" with a zero-width space are "alpha").
import { z } from "zod";
import { parseAgentName } from "@agentic/platform";

/**
 * A query parameter holding a whole number from `min` to `max`. `notANumber` words a value that is not
 * digits; `outOfRange` one outside the range (the same words by default).
 */
export function wholeNumberInQuery(min: number, max: number, notANumber: string, outOfRange = notANumber) {
  return z
    .string({ error: notANumber })
    .regex(/^\d+$/, { error: notANumber })
    .transform(Number)
    .pipe(z.number().int().min(min, { error: outOfRange }).max(max, { error: outOfRange }));
}

/** A string read as an agent name, normalized (`read` first takes what the string carries, e.g. a header's text). */
export function agentNameValue(read: (raw: string) => string = (raw) => raw) {
  return z.string().pipe(
    z.transform((raw: string, ctx) => {
      const parsed = parseAgentName(read(raw));
      if ("name" in parsed) return parsed.name;
      ctx.issues.push({ code: "custom", message: parsed.problem, input: raw });
      return z.NEVER;
    }),
  );
}
