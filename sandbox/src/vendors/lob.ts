// Lob stand-in (HTTP Basic, our key as the user name; `Idempotency-Key` on creates: a repeated key
// answers the piece it first created). POST /v1/letters {to, from, file, color, use_type, ...} → a letter
// (ltr_...); GET /v1/letters/:id and GET /v1/letters?limit= (a list); GET /v1/templates?limit= (none saved:
// an empty list); POST /v1/postcards {to, from?, front,
// back, size, use_type} → a postcard (psc_...). Errors {error: {message, status_code, code}}. Tracking
// events appear day by day after creation on the vendor clock (Mailed ... Delivered on day 5). A letter
// answers one thumbnail per printed page, as Lob does: its HTML prints one page plus one per forced page
// break that beats any stylesheet (an inline `page-break-before: always !important` or `break-after: page
// !important`), the way a caller could make a one-page frame print many.
import { randomBytes } from "node:crypto";
import {
  header,
  isObject,
  type SandboxVendor,
  type VendorContext,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
} from "../http/vendor";

const DAY_MS = 86_400_000;
/** A page break no stylesheet can override. */
const FORCED_BREAK = /(?:page-)?break-(?:before|after)\s*:\s*(?:page|always)\s*!\s*important/gi;

/** Pages Lob prints for a letter's HTML: one, plus one per forced page break. */
function printedPages(html: string): number {
  return 1 + (html.match(FORCED_BREAK)?.length ?? 0);
}
const EVENTS = ["Mailed", "In Transit", "In Local Area", "Processed for Delivery", "Delivered"] as const;
const POSTCARD_SIZES = new Set(["4x6", "6x9", "6x11"]);
const USE_TYPES = new Set(["marketing", "operational"]);
const MAIL_TYPES = new Set(["usps_first_class", "usps_standard"]);

function error(
  status: number,
  message: string,
  code = status === 401
    ? "unauthorized"
    : status === 404
      ? "not_found"
      : status >= 500
        ? "internal_server_error"
        : status === 429
          ? "rate_limit_exceeded"
          : "invalid",
): VendorReply {
  return { status, body: { error: { message, status_code: status, code } } };
}

interface Piece {
  record: Record<string, unknown>;
  createdMs: number;
}

/** Lob's address checks: the US fields it requires; a message when one is missing. */
function addressProblem(field: string, value: unknown, required: boolean): string | undefined {
  if (value === undefined) return required ? `${field} is required` : undefined;
  if (!isObject(value)) return `${field} must be an object`;
  const country = typeof value.address_country === "string" ? value.address_country.toUpperCase() : "US";
  const needed =
    country === "US"
      ? ["name", "address_line1", "address_city", "address_state", "address_zip"]
      : ["name", "address_line1", "address_country"];
  for (const key of needed) if (typeof value[key] !== "string" || value[key].trim() === "") return `${field}.${key} is required`;
  if (country === "US" && !/^\d{5}(-\d{4})?$/.test(value.address_zip as string))
    return `${field}.address_zip must be in a valid ZIP code format`;
  return undefined;
}

function addressRecord(value: Record<string, unknown>) {
  return { id: `adr_${randomBytes(8).toString("hex")}`, object: "address", address_country: "UNITED STATES", ...value };
}

export function lobVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  const pieces = new Map<string, Piece>();
  const byIdempotencyKey = new Map<string, string>();

  /** The piece as Lob shows it now: its tracking events so far on the vendor clock. */
  const view = (piece: Piece, now: Date) => {
    const days = Math.floor((now.getTime() - piece.createdMs) / DAY_MS);
    const events = EVENTS.slice(0, Math.max(0, Math.min(days, EVENTS.length))).map((name, i) => ({
      id: `evnt_${(piece.record.id as string).slice(4, 14)}${i}`,
      type: "normal",
      name,
      location: "94107",
      time: new Date(piece.createdMs + (i + 1) * DAY_MS).toISOString(),
      object: "tracking_event",
    }));
    return { ...piece.record, tracking_events: events };
  };

  const create = (req: VendorRequest, ctx: VendorContext, kind: "letter" | "postcard"): VendorReply => {
    const key = header(req, "idempotency-key");
    const seen = key ? byIdempotencyKey.get(`${kind}:${key}`) : undefined;
    if (seen) return { status: 200, body: view(pieces.get(seen) as Piece, ctx.now()) };
    const b = req.body;
    if (!isObject(b)) return error(422, "request body must be a JSON object");
    const problem =
      addressProblem("to", b.to, true) ??
      addressProblem("from", b.from, kind === "letter") ??
      (typeof b.use_type !== "string" || !USE_TYPES.has(b.use_type) ? "use_type must be one of [marketing, operational]" : undefined) ??
      (b.mail_type !== undefined && (typeof b.mail_type !== "string" || !MAIL_TYPES.has(b.mail_type))
        ? "mail_type must be one of [usps_first_class, usps_standard]"
        : undefined) ??
      (kind === "letter"
        ? typeof b.file !== "string" || b.file.trim() === ""
          ? "file is required"
          : typeof b.color !== "boolean"
            ? "color is required and must be a boolean"
            : undefined
        : typeof b.front !== "string" || b.front.trim() === "" || typeof b.back !== "string" || b.back.trim() === ""
          ? "front and back are required"
          : b.size !== undefined && (typeof b.size !== "string" || !POSTCARD_SIZES.has(b.size))
            ? "size must be one of [4x6, 6x9, 6x11]"
            : undefined);
    if (problem) return error(422, problem);
    const now = ctx.now();
    const id = `${kind === "letter" ? "ltr" : "psc"}_${randomBytes(8).toString("hex")}`;
    const day = (n: number) => new Date(now.getTime() + n * DAY_MS).toISOString().slice(0, 10);
    const record: Record<string, unknown> = {
      id,
      object: kind,
      description: typeof b.description === "string" ? b.description : null,
      to: addressRecord(b.to as Record<string, unknown>),
      from: isObject(b.from) ? addressRecord(b.from) : null,
      url: `https://lob-assets.example/${kind}s/${id}.pdf`,
      carrier: "USPS",
      tracking_number: null,
      mail_type: b.mail_type ?? "usps_first_class",
      use_type: b.use_type,
      expected_delivery_date: day(EVENTS.length),
      send_date: now.toISOString(),
      date_created: now.toISOString(),
      date_modified: now.toISOString(),
      ...(kind === "letter"
        ? {
            color: b.color,
            double_sided: b.double_sided ?? true,
            address_placement: b.address_placement ?? "top_first_page",
            thumbnails: Array.from({ length: printedPages(b.file as string) }, (_, page) => ({
              small: `https://lob-assets.example/letters/${id}_thumb_small_${page + 1}.png`,
              medium: `https://lob-assets.example/letters/${id}_thumb_medium_${page + 1}.png`,
              large: `https://lob-assets.example/letters/${id}_thumb_large_${page + 1}.png`,
            })),
          }
        : { size: b.size ?? "4x6" }),
    };
    pieces.set(id, { record, createdMs: now.getTime() });
    if (key) byIdempotencyKey.set(`${kind}:${key}`, id);
    return { status: 200, body: view(pieces.get(id) as Piece, now) };
  };

  return {
    key: "lob",
    price: { amountAtomic: priceAtomic, description: "Lob mail piece" },
    authenticate(req) {
      const auth = header(req, "authorization");
      const user = auth?.startsWith("Basic ") ? Buffer.from(auth.slice(6), "base64").toString("utf8").split(":")[0] : undefined;
      return user === apiKey ? undefined : error(401, "Your API key is not valid. Please sign up on lob.com to get a valid api key.");
    },
    errorReply: (status, message) => error(status, message),
    routes: [
      { method: "POST", path: "/v1/letters", handle: (req, ctx) => create(req, ctx, "letter") },
      { method: "POST", path: "/v1/postcards", handle: (req, ctx) => create(req, ctx, "postcard") },
      {
        method: "GET",
        path: "/v1/letters",
        handle: (req, ctx) => {
          const limit = req.query.limit === undefined ? 10 : Number(req.query.limit);
          if (!Number.isInteger(limit) || limit < 1 || limit > 100) return error(422, "limit must be between 1 and 100");
          const letters = [...pieces.values()]
            .filter((p) => p.record.object === "letter")
            .slice(-limit)
            .reverse();
          return {
            status: 200,
            body: {
              data: letters.map((p) => view(p, ctx.now())),
              object: "list",
              next_url: null,
              previous_url: null,
              count: letters.length,
            },
          };
        },
      },
      {
        method: "GET",
        path: "/v1/templates",
        handle: (req) => {
          const limit = req.query.limit === undefined ? 10 : Number(req.query.limit);
          if (!Number.isInteger(limit) || limit < 1 || limit > 100) return error(422, "limit must be between 1 and 100");
          return { status: 200, body: { data: [], object: "list", next_url: null, previous_url: null, count: 0 } };
        },
      },
      {
        method: "GET",
        path: "/v1/letters/:id",
        handle: (req, ctx) => {
          const piece = pieces.get(req.params.id ?? "");
          return piece && piece.record.object === "letter" ? { status: 200, body: view(piece, ctx.now()) } : error(404, "letter not found");
        },
      },
    ],
  };
}

export const lobSandbox = {
  key: "lob",
  apiKey: "live_sandbox_lob_key",
  priceAtomic: "1000",
  create: lobVendor,
} as const satisfies SandboxVendor;
