// Postmark (email.send): POST /email with `X-Postmark-Server-Token`, comma-joined recipients and
// PascalCase fields; 200 {MessageID, ErrorCode: 0}; errors {ErrorCode, Message} (422 for input).
import { readEmailMessage, EMAIL_SENDER_FIELDS } from "./email-message";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";
import { defaultSenderFrom, optionalSetting } from "./provider-settings";

const KEY = "postmark";

export const postmarkProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.postmarkapp.com" },
  settingsFromEnv: (read) => ({ ...defaultSenderFrom(read), ...optionalSetting("messageStream", read("POSTMARK_MESSAGE_STREAM")) }),
  capabilities: {
    "email.send": {
      request(input, ctx) {
        const m = readEmailMessage(KEY, input, ctx);
        return {
          method: "POST",
          url: `${ctx.baseUrl}/email`,
          headers: { Accept: "application/json", ...ourKeyAs(ctx, "X-Postmark-Server-Token") },
          body: {
            From: m.from,
            To: m.to.join(", "),
            ...(m.cc.length ? { Cc: m.cc.join(", ") } : {}),
            ...(m.bcc.length ? { Bcc: m.bcc.join(", ") } : {}),
            ...(m.replyTo.length ? { ReplyTo: m.replyTo.join(", ") } : {}),
            Subject: m.subject,
            ...(m.html !== undefined ? { HtmlBody: m.html } : {}),
            ...(m.text !== undefined ? { TextBody: m.text } : {}),
            ...(m.attachments.length
              ? {
                  Attachments: m.attachments.map((a) => ({
                    Name: a.filename,
                    Content: a.contentBase64,
                    ContentType: a.contentType ?? "application/octet-stream",
                  })),
                }
              : {}),
            MessageStream: ctx.settings?.messageStream ?? "outbound",
          },
        };
      },
      parse(res) {
        const code = isRecord(res.body) && typeof res.body.ErrorCode === "number" ? res.body.ErrorCode : undefined;
        const message = stringField(res.body, "Message");
        if (res.status !== 200)
          throw vendorError(KEY, res, { ...(code !== undefined ? { code: String(code) } : {}), ...(message ? { message } : {}) });
        const id = stringField(res.body, "MessageID");
        if (code !== 0 || !id) throw invalidResponse(KEY, res, `with ErrorCode ${String(code)} and no MessageID`);
        return {
          status: "sent",
          providerMessageId: id,
          data: { messageId: id, submittedAt: stringField(res.body, "SubmittedAt") ?? null },
        };
      },
      senderFields: EMAIL_SENDER_FIELDS,
    },
  },
});
