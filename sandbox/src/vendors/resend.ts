// Resend stand-in: POST /emails with `Authorization: Bearer re_...`; 200 {id}; errors
// {statusCode, message, name} (401 missing_api_key, 403 invalid_api_key, 422 validation errors).
import { randomUUID } from "node:crypto";
import {
  authToken,
  header,
  isObject,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
  type SandboxVendor,
} from "../http/vendor";
import { badAttachment, parseMailbox } from "./email-address";

const MAX_RECIPIENTS = 50;

function error(status: number, name: string, message: string): VendorReply {
  return { status, body: { statusCode: status, message, name } };
}

const NAMES: Record<number, string> = {
  400: "invalid_request",
  401: "missing_api_key",
  403: "invalid_api_key",
  404: "not_found",
  422: "validation_error",
  429: "rate_limit_exceeded",
};

export function resendVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "resend",
    price: { amountAtomic: priceAtomic, description: "Resend email" },
    errorReply: (status, message) => error(status, NAMES[status] ?? (status >= 500 ? "application_error" : "invalid_request"), message),
    authenticate(req) {
      if (!header(req, "authorization"))
        return error(
          401,
          "missing_api_key",
          "Missing API key in the authorization header. Include the following header in the request: Authorization: Bearer YOUR_API_KEY",
        );
      if (authToken(req, "Bearer") !== apiKey) return error(403, "invalid_api_key", "API key is invalid");
      return undefined;
    },
    routes: [{ method: "POST", path: "/emails", handle: sendEmail }],
  };
}

function sendEmail(req: VendorRequest): VendorReply {
  const b = req.body;
  if (!isObject(b)) return error(422, "validation_error", "The request body must be a JSON object.");
  for (const field of ["from", "to", "subject"]) {
    if (b[field] === undefined) return error(422, "missing_required_field", `Missing \`${field}\` field.`);
  }
  if (!parseMailbox(b.from))
    return error(
      422,
      "validation_error",
      "Invalid `from` field. The email address needs to follow the `email@example.com` or `Name <email@example.com>` format.",
    );
  const to = Array.isArray(b.to) ? b.to : [b.to];
  if (to.length === 0 || to.length > MAX_RECIPIENTS)
    return error(422, "validation_error", `The \`to\` field must contain between 1 and ${MAX_RECIPIENTS} addresses.`);
  for (const field of ["to", "cc", "bcc", "reply_to"]) {
    const values = b[field] === undefined ? [] : Array.isArray(b[field]) ? (b[field] as unknown[]) : [b[field]];
    if (values.some((v) => !parseMailbox(v)))
      return error(
        422,
        "validation_error",
        `Invalid \`${field}\` field. The email address needs to follow the \`email@example.com\` or \`Name <email@example.com>\` format.`,
      );
  }
  if (typeof b.subject !== "string" || b.subject.length === 0)
    return error(422, "validation_error", "The `subject` field must be a non-empty string.");
  if (typeof b.html !== "string" && typeof b.text !== "string")
    return error(422, "validation_error", "Either `html` or `text` must be provided.");
  if (badAttachment(b.attachments, "filename", "content") >= 0)
    return error(422, "validation_error", "Each attachment needs a `filename` and base64 `content`.");
  return { status: 200, body: { id: randomUUID() } };
}

export const resendSandbox = {
  key: "resend",
  apiKey: "re_sandbox_key",
  priceAtomic: "1000",
  create: resendVendor,
} as const satisfies SandboxVendor;
