// The JSON object body of capability calls (recommend, execute): absent means {}, anything but
// an object is a 400.
import type { Request } from "express";
import { invalidInput } from "../errors";

export function objectBody(req: Request): Record<string, unknown> {
  const body: unknown = req.body;
  if (body === undefined) return {};
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidInput("body", "must be a JSON object", "Send the capability's input as a JSON object; see its contract.");
  }
  return body as Record<string, unknown>;
}
