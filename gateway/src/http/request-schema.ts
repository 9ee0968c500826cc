// A route's request declared once, with zod: its path parameters, query, headers and body. The route validates
// with these objects (the functions here turn the first problem into a 400 INVALID_INPUT naming the
// field), and the OpenAPI document describes the same objects (openapi/from-zod.ts), so a limit changed
// in one place changes both.
import type { Request } from "express";
import { z } from "zod";
import { invalidInput } from "../errors";

/** What a field's 400 tells the caller to do: one hint, or one per problem. Kept out of the document. */
type Hint = string | ((issue: { code: string; message: string }) => string);

interface FieldOptions {
  /** A repeated query parameter reaches the schema (which words the refusal) instead of the common "must be given once". */
  ownsRepeats?: boolean;
  /** A header sent more than once: these words (or hint) instead of the common "must be sent once, not N times" (and the field's hint). */
  repeated?: { problem?: string; hint?: string };
}

const fieldHints = z.registry<{ hint: Hint } & FieldOptions>();

/** `schema` with the hint of its 400s (and, for a header or query parameter, how a repeat is refused). */
export function hinted<T extends z.ZodType>(schema: T, hint: Hint, opts: FieldOptions = {}): T {
  fieldHints.add(schema, { hint, ...opts });
  return schema;
}

type Shape = Record<string, z.ZodType>;

/**
 * The 400 of zod's first issue: the field it is about, the schema's words for the problem, the hint of
 * the field (else of the whole schema, else `fallbackHint`).
 */
function refusal(issue: z.core.$ZodIssue, whole: z.ZodType, shape: Shape, fallbackHint: string) {
  const field = issue.code === "unrecognized_keys" ? issue.keys.join(", ") : issue.path.join(".") || "body";
  const name = String(issue.path[0]);
  const schema = issue.path.length > 0 && Object.hasOwn(shape, name) ? shape[name] : undefined;
  const hint = (schema && fieldHints.get(schema)?.hint) ?? fieldHints.get(whole)?.hint ?? fallbackHint;
  return invalidInput(field, issue.message, typeof hint === "function" ? hint(issue) : hint);
}

function parseWith<S extends Shape, T extends z.ZodType>(schema: T, shape: S, input: unknown, fallbackHint: string): z.output<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw refusal(parsed.error.issues[0]!, schema, shape, fallbackHint);
  return parsed.data;
}

/**
 * The query of `req` checked by `schema`: a parameter it does not declare is a 400 naming `where`, the
 * operation (so a misspelt filter never answers unfiltered; without `where`, other parameters are not
 * this schema's business), a repeated one too, then each value by its field, in order.
 */
export function parseQuery<S extends Shape>(schema: z.ZodObject<S>, req: Request, where?: string): z.output<z.ZodObject<S>> {
  const names = Object.keys(schema.shape);
  const unknown = where === undefined ? undefined : Object.keys(req.query).find((name) => !names.includes(name));
  if (unknown !== undefined) throw invalidInput(unknown, `is not a parameter of ${where}`, `Use only ${names.join(", ")}.`);
  for (const name of names) {
    const raw = req.query[name];
    if (raw !== undefined && typeof raw !== "string" && !fieldHints.get(schema.shape[name]!)?.ownsRepeats)
      throw invalidInput(name, "must be given once, as a plain value", `Send ?${name}= once.`);
  }
  return parseWith(schema, schema.shape, req.query, "Fix the query and retry.");
}

/** The path parameters of `req` checked by `schema`. */
export function parseParams<T extends z.ZodObject>(schema: T, req: Request): z.output<T> {
  return parseWith(schema, schema.shape as Shape, req.params, "Fix the path and retry.");
}

/**
 * The headers of `req` checked by `schema`, whose keys are the header names as documented (`Agent-Name`):
 * a repeated one is a 400 naming it (which of two values would apply is ambiguous; Node joins repeated
 * custom headers with ", ", so the distinct values are read), then each value by its field, in the
 * order declared. Headers the schema does not declare are not its business.
 */
export function parseHeaders<S extends Shape>(schema: z.ZodObject<S>, req: Request): z.output<z.ZodObject<S>> {
  const input: Record<string, string> = {};
  for (const [name, field] of Object.entries(schema.shape)) {
    const values = req.headersDistinct[name.toLowerCase()];
    if (values === undefined) continue;
    const options = fieldHints.get(field);
    const hint = options?.repeated?.hint ?? (typeof options?.hint === "string" ? options.hint : `Send ${name} once.`);
    if (values.length > 1) throw invalidInput(name, options?.repeated?.problem ?? `must be sent once, not ${values.length} times`, hint);
    input[name] = values[0]!;
  }
  return parseWith(schema, schema.shape, input, "Fix the header and retry.");
}

/** Refuses a field the body schema does not declare before any other check, naming it. */
export interface UnknownFields {
  problem: string;
  hint: string;
}

/**
 * A JSON body checked by `schema` (absent reads as {}). `unknown`: a field the schema does not declare
 * is refused first, by name, in these words; `nullIsAbsent`: a null field reads as left out.
 */
export function parseBody<S extends Shape, T extends z.ZodType>(
  schema: T & { shape?: S },
  body: unknown,
  opts: { hint: string; unknown?: UnknownFields; nullIsAbsent?: boolean; shape?: S },
): z.output<T> {
  let input = body ?? {};
  const shape: Shape = opts.shape ?? schema.shape ?? {};
  if (typeof input === "object" && input !== null && !Array.isArray(input)) {
    if (opts.unknown) {
      const extra = Object.keys(input).find((key) => !(key in shape));
      if (extra !== undefined) throw invalidInput(extra, opts.unknown.problem, opts.unknown.hint);
    }
    if (opts.nullIsAbsent) input = Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null));
  }
  return parseWith(schema, shape, input, opts.hint);
}
