// The JSON object body of capability calls (recommend, execute, quote): absent means {}, a body that is
// not JSON is a 415, anything but an object (or one nested too deeply) is a 400 (requests/capability-input.ts).
import type { Request } from "express";
import { HttpError } from "../errors";
import { parseBody } from "../http/request-schema";
import { capabilityInput } from "./requests/capability-input";

/**
 * Refuses a body express.json() left unread because its Content-Type is not JSON (a form post
 * would otherwise read as no body at all). A request without a body passes.
 */
export function assertJsonBody(req: Request): void {
  if (req.body === undefined && hasBody(req)) {
    throw new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", "the request body must be JSON", "Send Content-Type: application/json");
  }
}

/** The body as a JSON object, checked by capabilityInput; {} when there is none. */
export function objectBody(req: Request): Record<string, unknown> {
  assertJsonBody(req);
  const body: unknown = req.body ?? {};
  parseBody(capabilityInput, body, { hint: "Send the capability's input as a JSON object; see its contract." });
  return body as Record<string, unknown>;
}

/** Whether the request carries a body (the test type-is uses: a length or a transfer encoding). */
function hasBody(req: Request): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && Number(length) > 0);
}
