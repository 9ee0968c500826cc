// Postmark (email.send): POST /email with `X-Postmark-Server-Token`, comma-joined recipients and
// PascalCase fields; 200 {MessageID, ErrorCode: 0}; errors {ErrorCode, Message} (422 for input).
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import { readEmailMessage, EMAIL_SENDER_FIELDS } from "./email-message";
import type { CapabilityInput, ProviderAdapter, ProviderContext, ProviderResult } from "../domain/provider-port";
import { assertCapability } from "./provider";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import type { ProviderModule } from "./provider-module";
import { defaultSenderFrom, optionalSetting } from "./provider-settings";

export class PostmarkAdapter implements ProviderAdapter {
  readonly providerKey = "postmark";
  readonly capabilityKeys = ["email.send"] as const;
  readonly senderFields = EMAIL_SENDER_FIELDS;

  buildRequest(capabilityKey: string, input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
    assertCapability(this, capabilityKey);
    const m = readEmailMessage(this.providerKey, input, ctx);
    return {
      method: "POST",
      url: `${ctx.baseUrl}/email`,
      headers: { Accept: "application/json", ...(ctx.credentials ? { "X-Postmark-Server-Token": ctx.credentials.apiKey } : {}) },
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
  }

  parseResponse(capabilityKey: string, res: RailResponse): ProviderResult {
    assertCapability(this, capabilityKey);
    const code = isRecord(res.body) && typeof res.body.ErrorCode === "number" ? res.body.ErrorCode : undefined;
    const message = stringField(res.body, "Message");
    if (res.status !== 200)
      throw vendorError(this.providerKey, res, { ...(code !== undefined ? { code: String(code) } : {}), ...(message ? { message } : {}) });
    const id = stringField(res.body, "MessageID");
    if (code !== 0 || !id) throw invalidResponse(this.providerKey, res, `with ErrorCode ${String(code)} and no MessageID`);
    return { status: "sent", providerMessageId: id, data: { messageId: id, submittedAt: stringField(res.body, "SubmittedAt") ?? null } };
  }
}

export const postmarkProvider: ProviderModule = {
  providerKey: "postmark",
  defaultBaseUrls: { direct: "https://api.postmarkapp.com" },
  settingsFromEnv: (read) => ({ ...defaultSenderFrom(read), ...optionalSetting("messageStream", read("POSTMARK_MESSAGE_STREAM")) }),
  create: () => new PostmarkAdapter(),
};
