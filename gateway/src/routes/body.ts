// The JSON object body of capability calls (recommend, execute): absent means {}, a body that is
// not JSON is a 415, anything but an object (or one nested too deeply) is a 400.
import type { Request } from "express";
import { HttpError, invalidInput } from "../errors";

/**
 * Deepest nesting accepted (the body object itself is level 1). Contracts nest a few levels; a
 * small body can still nest thousands deep, which overflows the protobuf Struct encoding.
 */
export const MAX_BODY_DEPTH = 32;

/**
 * Refuses a body express.json() left unread because its Content-Type is not JSON (a form post
 * would otherwise read as no body at all). A request without a body passes.
 */
export function assertJsonBody(req: Request): void {
  if (req.body === undefined && hasBody(req)) {
    throw new HttpError(415, "UNSUPPORTED_MEDIA_TYPE", "the request body must be JSON", "Send Content-Type: application/json");
  }
}

export function objectBody(req: Request): Record<string, unknown> {
  assertJsonBody(req);
  const body: unknown = req.body;
  if (body === undefined) return {};
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw invalidInput("body", "must be a JSON object", "Send the capability's input as a JSON object; see its contract.");
  }
  const polluting = prototypeKey(body);
  if (polluting) {
    throw invalidInput(
      polluting,
      "is a reserved name (__proto__, constructor and prototype are refused anywhere in a body)",
      "Remove the field; see the capability's contract for the fields it takes.",
    );
  }
  if (nestedDeeperThan(body, MAX_BODY_DEPTH)) {
    throw invalidInput(
      "body",
      `must not nest objects or arrays more than ${MAX_BODY_DEPTH} levels deep`,
      "Send a flatter JSON object; see the capability's contract.",
    );
  }
  return body as Record<string, unknown>;
}

/** Whether the request carries a body (the test type-is uses: a length or a transfer encoding). */
function hasBody(req: Request): boolean {
  const length = req.headers["content-length"];
  return req.headers["transfer-encoding"] !== undefined || (length !== undefined && Number(length) > 0);
}

/** Whether `value` nests objects or arrays more than `max` levels deep; iterative, so any depth is safe. */
function nestedDeeperThan(value: object, max: number): boolean {
  const stack: Array<[object, number]> = [[value, 1]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, depth] = item;
    for (const child of Array.isArray(node) ? node : Object.values(node)) {
      if (typeof child !== "object" || child === null) continue;
      if (depth + 1 > max) return true;
      stack.push([child, depth + 1]);
    }
  }
  return false;
}

/** Keys that would reach an object's prototype once copied into a plain object downstream. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** The path of the first prototype key anywhere in `value` (JSON.parse keeps `__proto__` as an own key), else undefined. */
function prototypeKey(value: object): string | undefined {
  const stack: Array<[object, string]> = [[value, ""]];
  for (let item = stack.pop(); item !== undefined; item = stack.pop()) {
    const [node, at] = item;
    for (const key of Object.keys(node)) {
      const here = Array.isArray(node) ? `${at}[${key}]` : at ? `${at}.${key}` : key;
      if (!Array.isArray(node) && PROTOTYPE_KEYS.has(key)) return here;
      const child = (node as Record<string, unknown>)[key];
      if (typeof child === "object" && child !== null) stack.push([child, here]);
    }
  }
  return undefined;
}
