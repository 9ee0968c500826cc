// Lob (HTTP Basic with our key as the user name; `Idempotency-Key` on creates, as Lob dedupes on it):
// - post.letter.send: POST /v1/letters {to, from, file (HTML), color, mail_type, use_type} → a letter
//   {id: ltr_..., expected_delivery_date, tracking_events[], url}; the letter is recorded as its sender's;
// - post.letter.status: GET /v1/letters/{id} (only a letter the caller sent: resourceFields);
// - post.postcard.send: POST /v1/postcards {to, from?, front, back, size} → a postcard {id: psc_..., ...};
// - post.letter.quote: Lob has no quote API, so the quote is priced from Lob's price sheet (lob-prices.ts)
//   after a free read (GET /v1/templates?limit=1: it carries no one's address) that shows our Lob account
//   answers; nothing is created.
// Errors {error: {message, status_code, code}}. A letter is one US First Class page: the HTML is
// sanitized (letter-html.ts: no stylesheet, no script, nothing that closes the frame or breaks pages)
// and framed in one 8.5x11in page (what overflows is cut), which is what the send price covers; the
// answer's page count (one thumbnail per printed page) is read back and returned as `pages`.
import type { RailResponse } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import type { CapabilityInput, ProviderContext } from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { pathSegment } from "./url-path";
import { defineProvider } from "./provider-table";
import { LETTER_SEND_CREDITS, LOB_POSTCARD_USD, letterCostUsd } from "./lob-prices";
import { sanitizeLetterHtml } from "./letter-html";

const KEY = "lob";

/** Resource kinds of what Lob mails for a caller. */
const LETTER_KIND = "post.letter";
const POSTCARD_KIND = "post.postcard";

/** The caller's HTML in one letter page: fixed to 8.5x11in, overflow cut, no page breaks. */
function onePage(html: string): string {
  return (
    '<html><head><meta charset="utf-8"><style>@page{size:8.5in 11in;margin:0}html,body{margin:0;padding:0}' +
    ".agentic-page{width:8.5in;height:11in;overflow:hidden;position:relative}.agentic-page *{break-before:avoid!important;" +
    "break-after:avoid!important;page-break-before:avoid!important;page-break-after:avoid!important}</style></head><body>" +
    `<div class="agentic-page">${html}</div></body></html>`
  );
}

function fail(field: string, message: string): never {
  throw inputRefusal(KEY, message, field);
}

/** Our address object as Lob's; US addresses only (the prices are Lob's US First Class ones). */
function address(input: CapabilityInput, field: string, required: boolean): Record<string, string> | undefined {
  const value = input[field];
  if (value === undefined || value === null) return required ? fail(field, `input field "${field}" is required`) : undefined;
  if (!isRecord(value)) return fail(field, `input field "${field}" must be an address object`);
  const read = new InputReader(KEY, value);
  const country = read.string("country", true).toUpperCase();
  if (country !== "US") fail(field, `input field "${field}" must be a US address: Lob mails from and to the US on these routes`);
  const line2 = read.string("addressLine2");
  const state = read.string("state");
  return {
    name: read.string("name", true),
    address_line1: read.string("addressLine1", true),
    ...(line2 ? { address_line2: line2 } : {}),
    address_city: read.string("city", true),
    ...(state ? { address_state: state } : {}),
    address_zip: read.string("postalCode", true),
    address_country: country,
  };
}

/** The caller's HTML as the frame can keep it on one page; refused when nothing printable is left. */
function letterHtml(input: CapabilityInput): string {
  const html = sanitizeLetterHtml(new InputReader(KEY, input).string("html", true));
  if (html === "") fail("html", 'input field "html" has nothing printable once stylesheets, scripts and page-level tags are removed');
  return html;
}

function color(input: CapabilityInput): boolean {
  return new InputReader(KEY, input).boolean("color");
}

/** The letter Lob would print for this input (also what the quote checks). */
function letter(input: CapabilityInput) {
  return {
    description: "Agentic API letter",
    to: address(input, "to", true),
    from: address(input, "from", true),
    file: onePage(letterHtml(input)),
    color: color(input),
    double_sided: false,
    address_placement: "top_first_page",
    mail_type: "usps_first_class",
    use_type: "operational",
  };
}

/** HTTP Basic with our key as the user name, on direct routes. */
const auth = (ctx: ProviderContext): Record<string, string> =>
  ctx.credentials ? { Authorization: `Basic ${Buffer.from(`${ctx.credentials.apiKey}:`).toString("base64")}` } : {};
/** A create also carries the execution's idempotency key, which Lob dedupes on. */
const createHeaders = (ctx: ProviderContext): Record<string, string> => ({
  ...auth(ctx),
  ...(ctx.idempotencyKey ? { "Idempotency-Key": ctx.idempotencyKey } : {}),
});

/** The answer's body, once Lob answered 200. */
function bodyOf(res: RailResponse): unknown {
  if (res.status !== 200) {
    const error = isRecord(res.body) && isRecord(res.body.error) ? res.body.error : undefined;
    throw vendorError(KEY, res, { code: stringField(error, "code"), message: stringField(error, "message") });
  }
  return res.body;
}

/** A letter or postcard Lob answered: its id, and what every mail piece says about its way. */
function mailPiece(res: RailResponse) {
  const body = bodyOf(res);
  const piece = isRecord(body) ? body : undefined;
  const id = stringField(piece, "id");
  if (!piece || !id) throw invalidResponse(KEY, res, "without the mail piece's id");
  const events = Array.isArray(piece.tracking_events) ? piece.tracking_events.filter(isRecord) : [];
  const trackingEvents = events.map((e) => ({
    name: stringField(e, "name") ?? null,
    time: stringField(e, "time") ?? null,
    location: stringField(e, "location") ?? null,
  }));
  const common = {
    status: trackingEvents.at(-1)?.name ?? "Created",
    expectedDeliveryDate: stringField(piece, "expected_delivery_date") ?? null,
    sendDate: stringField(piece, "send_date") ?? null,
    carrier: stringField(piece, "carrier") ?? null,
    trackingNumber: stringField(piece, "tracking_number") ?? null,
    previewUrl: stringField(piece, "url") ?? null,
    trackingEvents,
  };
  return { piece, id, common };
}

const colorOf = (piece: Record<string, unknown>) => (typeof piece.color === "boolean" ? piece.color : null);

export const lobProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.lob.com" },
  capabilities: {
    "post.letter.quote": {
      request(input, ctx) {
        letter(input);
        return { method: "GET", url: `${ctx.baseUrl}/v1/templates?limit=1`, headers: auth(ctx) };
      },
      parse(res, input) {
        const body = bodyOf(res);
        if (!isRecord(body) || !Array.isArray(body.data)) throw invalidResponse(KEY, res, "without data");
        const isColor = color(input);
        return {
          status: "quoted",
          data: {
            creditsEstimate: LETTER_SEND_CREDITS,
            lobCostUsd: letterCostUsd({ color: isColor }),
            color: isColor,
            pages: 1,
            mailType: "usps_first_class",
            destinationCountry: "US",
          },
        };
      },
    },
    "post.letter.send": {
      request: (input, ctx) => ({ method: "POST", url: `${ctx.baseUrl}/v1/letters`, headers: createHeaders(ctx), body: letter(input) }),
      parse(res) {
        const { piece, id, common } = mailPiece(res);
        // Lob renders one thumbnail per printed page: what Lob bills for.
        const pages = Array.isArray(piece.thumbnails) ? piece.thumbnails.length : null;
        return {
          status: "sent",
          providerMessageId: id,
          createdResources: [{ kind: LETTER_KIND, resourceId: id }],
          data: { letterId: id, color: colorOf(piece), pages, ...common },
          ...(pages !== null ? { billedUnits: { pages } } : {}),
        };
      },
    },
    "post.letter.status": {
      resourceFields: { letterId: LETTER_KIND },
      request(input, ctx) {
        const id = new InputReader(KEY, input).string("letterId", true);
        return { method: "GET", url: `${ctx.baseUrl}/v1/letters/${pathSegment(KEY, "letterId", id)}`, headers: auth(ctx) };
      },
      parse(res) {
        const { piece, id, common } = mailPiece(res);
        return { status: "completed", providerMessageId: id, data: { letterId: id, color: colorOf(piece), ...common } };
      },
    },
    "post.postcard.send": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const size = read.string("size") ?? "4x6";
        if (LOB_POSTCARD_USD[size] === undefined)
          fail("size", `input field "size" must be one of ${Object.keys(LOB_POSTCARD_USD).join(", ")}`);
        const from = address(input, "from", false);
        return {
          method: "POST",
          url: `${ctx.baseUrl}/v1/postcards`,
          headers: createHeaders(ctx),
          body: {
            description: "Agentic API postcard",
            to: address(input, "to", true),
            ...(from ? { from } : {}),
            front: read.string("front", true),
            back: read.string("back", true),
            size,
            mail_type: "usps_first_class",
            use_type: "operational",
          },
        };
      },
      parse(res) {
        const { piece, id, common } = mailPiece(res);
        return {
          status: "sent",
          providerMessageId: id,
          createdResources: [{ kind: POSTCARD_KIND, resourceId: id }],
          data: { postcardId: id, size: stringField(piece, "size") ?? null, ...common },
        };
      },
    },
  },
});
