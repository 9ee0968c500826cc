// AgentMail stand-in (API and its MPP host): POST /v0/inboxes {username?, domain?, display_name?, client_id?}
// → the Inbox {pod_id, inbox_id, email, display_name, client_id, created_at, updated_at} (the same
// client_id returns the existing inbox); POST /v0/inboxes/:inbox_id/messages/send → {message_id,
// thread_id}, from inboxes created here. Errors {name, message} (ValidationError lists `errors`).
import { randomBytes, randomUUID } from "node:crypto";
import { badAttachment, parseMailbox } from "./email-address";
import {
  authToken,
  isObject,
  type VendorContext,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
  type SandboxVendor,
} from "../http/vendor";

const DEFAULT_DOMAIN = "agentmail.to";
const USERNAME = /^[a-z0-9](?:[a-z0-9._-]{0,62}[a-z0-9])?$/;

interface Inbox {
  pod_id: string;
  inbox_id: string;
  email: string;
  display_name: string | null;
  client_id: string | null;
  created_at: string;
  updated_at: string;
}

function error(status: number, name: string, message: string): VendorReply {
  return { status, body: { name, message } };
}

function validation(path: string, message: string): VendorReply {
  return { status: 400, body: { name: "ValidationError", errors: [{ path: [path], message }] } };
}

export function agentmailVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  const inboxes = new Map<string, Inbox>();
  const byClientId = new Map<string, Inbox>();
  const podId = `pod_${randomBytes(8).toString("hex")}`;

  function createInbox(req: VendorRequest, ctx: VendorContext): VendorReply {
    const b = req.body === undefined ? {} : req.body;
    if (!isObject(b)) return validation("body", "Expected object");
    for (const key of ["username", "domain", "display_name", "client_id"]) {
      if (b[key] !== undefined && typeof b[key] !== "string") return validation(key, "Expected string");
    }
    if (typeof b.client_id === "string") {
      const existing = byClientId.get(b.client_id);
      if (existing) return { status: 200, body: existing };
    }
    const domain = (b.domain as string | undefined)?.toLowerCase() ?? DEFAULT_DOMAIN;
    // Custom domains must be verified first; the sandbox account has verified none.
    if (domain !== DEFAULT_DOMAIN) return error(404, "NotFoundError", `Domain ${domain} not found`);
    const username = (b.username as string | undefined)?.toLowerCase() ?? `agent-${randomBytes(5).toString("hex")}`;
    if (!USERNAME.test(username)) return validation("username", "Invalid username");
    const email = `${username}@${domain}`;
    if (inboxes.has(email)) return error(409, "AlreadyExistsError", `Inbox ${email} already exists`);
    const now = ctx.now().toISOString();
    const inbox: Inbox = {
      pod_id: podId,
      inbox_id: email,
      email,
      display_name: (b.display_name as string | undefined) ?? null,
      client_id: (b.client_id as string | undefined) ?? null,
      created_at: now,
      updated_at: now,
    };
    inboxes.set(email, inbox);
    if (inbox.client_id) byClientId.set(inbox.client_id, inbox);
    return { status: 200, body: inbox };
  }

  function sendMessage(req: VendorRequest): VendorReply {
    const inbox = inboxes.get((req.params.inbox_id ?? "").toLowerCase());
    if (!inbox) return error(404, "NotFoundError", "Inbox not found");
    const b = req.body;
    if (!isObject(b)) return validation("body", "Expected object");
    const list = (v: unknown) => (v === undefined ? [] : Array.isArray(v) ? v : [v]);
    const to = list(b.to);
    if (to.length === 0) return validation("to", "At least one recipient is required");
    for (const key of ["to", "cc", "bcc", "reply_to"])
      if (list(b[key]).some((a) => !parseMailbox(a))) return validation(key, "Invalid email address");
    if (typeof b.text !== "string" && typeof b.html !== "string") return validation("text", "text or html is required");
    if (badAttachment(b.attachments, "filename", "content") >= 0)
      return validation("attachments", "Each attachment needs filename and base64 content");
    return { status: 200, body: { message_id: `<${randomUUID()}@agentmail.to>`, thread_id: randomUUID() } };
  }

  return {
    key: "agentmail",
    price: { amountAtomic: priceAtomic, description: "Create an AgentMail inbox" },
    authenticate: (req) => (authToken(req, "Bearer") === apiKey ? undefined : error(401, "UnauthorizedError", "Invalid API key")),
    errorReply: (status, message) =>
      error(status, status >= 500 ? "InternalServerError" : status === 404 ? "NotFoundError" : "BadRequestError", message),
    routes: [
      { method: "POST", path: "/v0/inboxes", handle: createInbox },
      // Sending is priced per message, far below an inbox.
      { method: "POST", path: "/v0/inboxes/:inbox_id/messages/send", handle: sendMessage, priceAtomic: "2000" },
    ],
  };
}

export const agentmailSandbox = {
  key: "agentmail",
  apiKey: "am_sandbox_key",
  priceAtomic: "500000",
  create: agentmailVendor,
} as const satisfies SandboxVendor;
