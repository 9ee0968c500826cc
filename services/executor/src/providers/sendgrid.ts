// SendGrid v3 (email.send): POST /v3/mail/send with personalizations and content blocks
// (text/plain first); 202 with an empty body and the message id in `X-Message-Id`;
// errors {errors: [{message, field, help}]}.
import { readEmailMessage, splitMailbox, EMAIL_SENDER_FIELDS } from "./email-message";
import { invalidResponse, isRecord, vendorError } from "./vendor-error";
import { defineProvider } from "./provider-table";
import { defaultSenderFrom } from "./provider-settings";
import { bearerAuth } from "./vendor-key";

const KEY = "sendgrid";

const toList = (mailboxes: string[]) => mailboxes.map(splitMailbox);

export const sendgridProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.sendgrid.com" },
  settingsFromEnv: (read) => defaultSenderFrom(read),
  capabilities: {
    "email.send": {
      request(input, ctx) {
        const m = readEmailMessage(KEY, input, ctx);
        const content = [
          ...(m.text !== undefined ? [{ type: "text/plain", value: m.text }] : []),
          ...(m.html !== undefined ? [{ type: "text/html", value: m.html }] : []),
        ];
        return {
          method: "POST",
          url: `${ctx.baseUrl}/v3/mail/send`,
          headers: bearerAuth(ctx),
          body: {
            personalizations: [
              { to: toList(m.to), ...(m.cc.length ? { cc: toList(m.cc) } : {}), ...(m.bcc.length ? { bcc: toList(m.bcc) } : {}) },
            ],
            from: splitMailbox(m.from),
            // reply_to takes one address; reply_to_list is SendGrid's form for several.
            ...(m.replyTo.length === 1
              ? { reply_to: splitMailbox(m.replyTo[0] as string) }
              : m.replyTo.length > 1
                ? { reply_to_list: toList(m.replyTo) }
                : {}),
            subject: m.subject,
            content,
            ...(m.attachments.length
              ? {
                  attachments: m.attachments.map((a) => ({
                    content: a.contentBase64,
                    filename: a.filename,
                    ...(a.contentType ? { type: a.contentType } : {}),
                    disposition: "attachment",
                  })),
                }
              : {}),
          },
        };
      },
      parse(res) {
        if (res.status !== 202) {
          const errors = isRecord(res.body) && Array.isArray(res.body.errors) ? res.body.errors.filter(isRecord) : [];
          const message = errors
            .map((e) => (typeof e.field === "string" ? `${e.field}: ${String(e.message)}` : String(e.message)))
            .join("; ");
          throw vendorError(KEY, res, message ? { message } : {});
        }
        const id = res.headers["x-message-id"];
        if (!id) throw invalidResponse(KEY, res, "without X-Message-Id");
        return { status: "sent", providerMessageId: id, data: { messageId: id } };
      },
      senderFields: EMAIL_SENDER_FIELDS,
    },
  },
});
