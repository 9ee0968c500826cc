// Postmark stand-in: POST /email with `X-Postmark-Server-Token`; 200 {To, SubmittedAt, MessageID,
// ErrorCode: 0, Message: "OK"}; errors {ErrorCode, Message} (401 code 10, 422 code 300 and friends).
import { randomUUID } from "node:crypto";
import {
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

function error(status: number, code: number, message: string): VendorReply {
  return { status, body: { ErrorCode: code, Message: message } };
}

export function postmarkVendor({ apiKey: serverToken, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "postmark",
    price: { amountAtomic: priceAtomic, description: "Postmark email" },
    // Postmark reports request problems as 422 with an ErrorCode; 500s carry no specific code.
    errorReply: (status, message) => error(status, status >= 500 ? 0 : 300, message),
    authenticate(req) {
      const token = header(req, "x-postmark-server-token");
      if (!token)
        return error(
          401,
          10,
          "No Account or Server API tokens were supplied in the HTTP headers. Please add a header for either X-Postmark-Server-Token or X-Postmark-Account-Token.",
        );
      if (token !== serverToken)
        return error(
          401,
          10,
          "The Server Token you provided in the X-Postmark-Server-Token request header was invalid. Please verify that you are using a valid token.",
        );
      return undefined;
    },
    routes: [{ method: "POST", path: "/email", handle: sendEmail }],
  };
}

/** Postmark takes recipient lists as one comma-separated string. */
function recipients(value: unknown): string[] | undefined {
  if (value === undefined) return [];
  if (typeof value !== "string") return undefined;
  const parts = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return parts.every((p) => parseMailbox(p)) ? parts : undefined;
}

function sendEmail(req: VendorRequest, ctx: { now(): Date }): VendorReply {
  const b = req.body;
  if (!isObject(b)) return error(422, 300, "Invalid email request");
  if (!parseMailbox(b.From)) return error(422, 300, "Invalid 'From' address: '" + String(b.From ?? "") + "'.");
  const to = recipients(b.To);
  if (!to || to.length === 0) return error(422, 300, "Invalid 'To' address: '" + String(b.To ?? "") + "'.");
  const cc = recipients(b.Cc);
  const bcc = recipients(b.Bcc);
  if (!cc || !bcc) return error(422, 300, "Invalid 'Cc' or 'Bcc' address.");
  if (to.length + cc.length + bcc.length > MAX_RECIPIENTS) return error(422, 300, `Maximum of ${MAX_RECIPIENTS} recipients exceeded.`);
  if (b.ReplyTo !== undefined && !recipients(b.ReplyTo)) return error(422, 300, "Invalid 'ReplyTo' address.");
  if (typeof b.HtmlBody !== "string" && typeof b.TextBody !== "string")
    return error(422, 300, "Provide either email TextBody or HtmlBody or both.");
  if (
    badAttachment(b.Attachments, "Name", "Content") >= 0 ||
    (Array.isArray(b.Attachments) && b.Attachments.some((a) => typeof (a as Record<string, unknown>).ContentType !== "string"))
  ) {
    return error(422, 300, "Invalid attachment: each needs Name, base64 Content and ContentType.");
  }
  return { status: 200, body: { To: b.To, SubmittedAt: ctx.now().toISOString(), MessageID: randomUUID(), ErrorCode: 0, Message: "OK" } };
}

export const postmarkSandbox = {
  key: "postmark",
  apiKey: "sandbox-postmark-server-token",
  priceAtomic: "1500",
  create: postmarkVendor,
} as const satisfies SandboxVendor;
