// AgentMail: email.inbox.buy is POST /v0/inboxes {username?, domain?, display_name?, client_id?} →
// Inbox {inbox_id, email, display_name, created_at, ...}; email.send from an owned inbox is
// POST /v0/inboxes/{inbox_id}/messages/send → {message_id, thread_id}. Errors {name, message}. The
// execution's idempotency key becomes the inbox `client_id`, for which AgentMail returns the existing
// inbox instead of a second one. Inboxes live on our AgentMail account: a bought one is recorded as its
// buyer's (createdResources), and `inboxId` names one the caller must own (resourceFields).
import type { RailResponse } from "../domain/rail-port";
import { contentAttachments, readEmailMessage, EMAIL_SENDER_FIELDS } from "./email-message";
import { InputReader } from "./input";
import { pathSegment } from "./url-path";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { defineProvider } from "./provider-table";
import { bearerAuth } from "./vendor-key";

const KEY = "agentmail";

/** The resource kind of an AgentMail inbox. */
const INBOX_KIND = "email.inbox";

/** AgentMail's error body {name, message} (or {errors}), or nothing on a 200. */
function checkStatus(res: RailResponse): void {
  if (res.status === 200) return;
  const errors = isRecord(res.body) && Array.isArray(res.body.errors) ? JSON.stringify(res.body.errors) : undefined;
  throw vendorError(KEY, res, {
    code: stringField(res.body, "name"),
    message: stringField(res.body, "message") ?? errors,
  });
}

export const agentmailProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.agentmail.to", mpp: "https://mpp.api.agentmail.to" },
  capabilities: {
    "email.inbox.buy": {
      request(input, ctx) {
        const read = new InputReader(KEY, input);
        const username = read.string("username");
        const domain = read.string("domain");
        const displayName = read.string("displayName");
        return {
          method: "POST",
          url: `${ctx.baseUrl}/v0/inboxes`,
          headers: bearerAuth(ctx),
          body: {
            ...(username ? { username } : {}),
            ...(domain ? { domain } : {}),
            ...(displayName ? { display_name: displayName } : {}),
            ...(ctx.idempotencyKey ? { client_id: ctx.idempotencyKey } : {}),
          },
        };
      },
      parse(res) {
        checkStatus(res);
        const inboxId = stringField(res.body, "inbox_id");
        if (!inboxId) throw invalidResponse(KEY, res, "without inbox_id");
        // The inbox id is its address; newer answers also carry it as `email`.
        const address = stringField(res.body, "email") ?? inboxId;
        return {
          status: "created",
          providerMessageId: inboxId,
          createdResources: [{ kind: INBOX_KIND, resourceId: inboxId }],
          data: {
            inboxId,
            address,
            displayName: stringField(res.body, "display_name") ?? null,
            createdAt: stringField(res.body, "created_at") ?? null,
          },
        };
      },
    },
    "email.send": {
      senderFields: EMAIL_SENDER_FIELDS,
      resourceFields: { inboxId: INBOX_KIND },
      request(input, ctx) {
        const inboxId = new InputReader(KEY, input).string("inboxId", true);
        const m = readEmailMessage(KEY, input, ctx, "inbox");
        return {
          method: "POST",
          url: `${ctx.baseUrl}/v0/inboxes/${pathSegment(KEY, "inboxId", inboxId)}/messages/send`,
          headers: bearerAuth(ctx),
          body: {
            to: m.to,
            ...(m.cc.length ? { cc: m.cc } : {}),
            ...(m.bcc.length ? { bcc: m.bcc } : {}),
            ...(m.replyTo.length ? { reply_to: m.replyTo } : {}),
            subject: m.subject,
            ...(m.text !== undefined ? { text: m.text } : {}),
            ...(m.html !== undefined ? { html: m.html } : {}),
            ...contentAttachments(m),
          },
        };
      },
      parse(res) {
        checkStatus(res);
        const messageId = stringField(res.body, "message_id");
        if (!messageId) throw invalidResponse(KEY, res, "without message_id");
        return { status: "sent", providerMessageId: messageId, data: { messageId, threadId: stringField(res.body, "thread_id") ?? null } };
      },
    },
  },
});
