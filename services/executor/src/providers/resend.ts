// Resend (email.send): POST /emails with `Authorization: Bearer <key>` and an optional
// `Idempotency-Key`; 200 {id}; errors {statusCode, name, message}.
import { contentAttachments, readEmailMessage, EMAIL_SENDER_FIELDS } from "./email-message";
import { invalidResponse, stringField, vendorError } from "./vendor-error";
import { defineProvider } from "./provider-table";
import { defaultSenderFrom } from "./provider-settings";
import { bearerAuth } from "./vendor-key";

const KEY = "resend";

export const resendProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.resend.com" },
  settingsFromEnv: (read) => defaultSenderFrom(read),
  capabilities: {
    "email.send": {
      request(input, ctx) {
        const m = readEmailMessage(KEY, input, ctx);
        return {
          method: "POST",
          url: `${ctx.baseUrl}/emails`,
          headers: {
            ...bearerAuth(ctx),
            // Resend replays the first answer for 24 h, so a retried execution cannot send twice.
            ...(ctx.idempotencyKey ? { "Idempotency-Key": ctx.idempotencyKey } : {}),
          },
          body: {
            from: m.from,
            to: m.to,
            subject: m.subject,
            ...(m.html !== undefined ? { html: m.html } : {}),
            ...(m.text !== undefined ? { text: m.text } : {}),
            ...(m.cc.length ? { cc: m.cc } : {}),
            ...(m.bcc.length ? { bcc: m.bcc } : {}),
            ...(m.replyTo.length ? { reply_to: m.replyTo } : {}),
            ...contentAttachments(m),
          },
        };
      },
      parse(res) {
        if (res.status !== 200)
          throw vendorError(KEY, res, { code: stringField(res.body, "name"), message: stringField(res.body, "message") });
        const id = stringField(res.body, "id");
        if (!id) throw invalidResponse(KEY, res, "without an email id");
        return { status: "sent", providerMessageId: id, data: { messageId: id } };
      },
      senderFields: EMAIL_SENDER_FIELDS,
    },
  },
});
