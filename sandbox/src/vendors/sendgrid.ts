// SendGrid v3 stand-in: POST /v3/mail/send with `Authorization: Bearer SG...`; 202 with an empty body
// and an `X-Message-Id` header; errors {errors: [{message, field, help}]}.
import { randomBytes } from "node:crypto";
import {
  authToken,
  isObject,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
  type SandboxVendor,
} from "../http/vendor";
import { badAttachment, parseMailbox } from "./email-address";

function errors(status: number, items: Array<{ message: string; field: string | null }>): VendorReply {
  return { status, body: { errors: items.map((i) => ({ ...i, help: null })) } };
}

export function sendgridVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "sendgrid",
    price: { amountAtomic: priceAtomic, description: "SendGrid email" },
    errorReply: (status, message) => errors(status, [{ message, field: null }]),
    authenticate(req) {
      if (authToken(req, "Bearer") !== apiKey)
        return errors(401, [{ message: "The provided authorization grant is invalid, expired, or revoked", field: null }]);
      return undefined;
    },
    routes: [{ method: "POST", path: "/v3/mail/send", handle: mailSend }],
  };
}

function mailSend(req: VendorRequest): VendorReply {
  const b = req.body;
  if (!isObject(b)) return errors(400, [{ message: "Bad Request", field: null }]);
  const problems: Array<{ message: string; field: string }> = [];
  const personalizations = b.personalizations;
  if (!Array.isArray(personalizations) || personalizations.length === 0) {
    problems.push({
      message: "The personalizations field is required and must have at least one personalization.",
      field: "personalizations",
    });
  } else {
    personalizations.forEach((p, i) => {
      const to = isObject(p) ? p.to : undefined;
      if (!Array.isArray(to) || to.length === 0)
        problems.push({
          message:
            "The to array is required for all personalization objects, and must have at least one email object with a valid email address.",
          field: `personalizations.${i}.to`,
        });
      for (const kind of ["to", "cc", "bcc"]) {
        const list = isObject(p) ? p[kind] : undefined;
        if (Array.isArray(list))
          list.forEach((entry, j) => {
            if (!isObject(entry) || !parseMailbox(entry.email))
              problems.push({ message: "Does not contain a valid address.", field: `personalizations.${i}.${kind}.${j}.email` });
          });
      }
    });
  }
  if (!isObject(b.from) || !parseMailbox(b.from.email))
    problems.push({
      message:
        "The from object must be provided for every email send. It is an object that requires the email parameter, but may also contain a name parameter.",
      field: "from.email",
    });
  const hasSubject =
    typeof b.subject === "string" ||
    (Array.isArray(personalizations) && personalizations.every((p) => isObject(p) && typeof p.subject === "string"));
  if (!hasSubject)
    problems.push({
      message:
        "The subject is required. You can get around this requirement if you use a template with a subject defined or if every personalization has a subject defined.",
      field: "subject",
    });
  const content = b.content;
  if (
    !Array.isArray(content) ||
    content.length === 0 ||
    content.some((c) => !isObject(c) || typeof c.type !== "string" || typeof c.value !== "string" || c.value.length === 0)
  ) {
    problems.push({
      message:
        "Unless a valid template_id is provided, the content parameter is required. There must be at least one defined content block. We typically suggest both text/plain and text/html blocks are included, but only one block is required.",
      field: "content",
    });
  } else if (content.length > 1 && isObject(content[0]) && content[0].type !== "text/plain") {
    problems.push({ message: "If present, text/plain content must be first, followed by any other content.", field: "content" });
  }
  const attachment = badAttachment(b.attachments, "filename", "content");
  if (attachment >= 0)
    problems.push({
      message: "The attachment content must be base64 encoded and have a filename.",
      field: `attachments.${attachment}.content`,
    });
  if (problems.length > 0) return errors(400, problems);
  return { status: 202, headers: { "X-Message-Id": randomBytes(16).toString("base64url").slice(0, 22) } };
}

export const sendgridSandbox = {
  key: "sendgrid",
  apiKey: "SG.sandbox.key",
  priceAtomic: "1000",
  create: sendgridVendor,
} as const satisfies SandboxVendor;
