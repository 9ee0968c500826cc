// Resend (email.send): POST /emails with `Authorization: Bearer <key>` and an optional
// `Idempotency-Key`; 200 {id}; errors {statusCode, name, message}.
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import { readEmailMessage, EMAIL_SENDER_FIELDS } from "./email-message";
import type { CapabilityInput, ProviderAdapter, ProviderContext, ProviderResult } from "../domain/provider-port";
import { assertCapability } from "./provider";
import { invalidResponse, stringField, vendorError } from "./vendor-error";
import type { ProviderModule } from "./provider-module";
import { defaultSenderFrom } from "./provider-settings";
import { bearerAuth } from "./bearer-auth";

export class ResendAdapter implements ProviderAdapter {
  readonly providerKey = "resend";
  readonly capabilityKeys = ["email.send"] as const;
  readonly senderFields = EMAIL_SENDER_FIELDS;

  buildRequest(capabilityKey: string, input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
    assertCapability(this, capabilityKey);
    const m = readEmailMessage(this.providerKey, input, ctx);
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
        ...(m.attachments.length
          ? {
              attachments: m.attachments.map((a) => ({
                filename: a.filename,
                content: a.contentBase64,
                ...(a.contentType ? { content_type: a.contentType } : {}),
              })),
            }
          : {}),
      },
    };
  }

  parseResponse(capabilityKey: string, res: RailResponse): ProviderResult {
    assertCapability(this, capabilityKey);
    if (res.status !== 200)
      throw vendorError(this.providerKey, res, { code: stringField(res.body, "name"), message: stringField(res.body, "message") });
    const id = stringField(res.body, "id");
    if (!id) throw invalidResponse(this.providerKey, res, "without an email id");
    return { status: "sent", providerMessageId: id, data: { messageId: id } };
  }
}

export const resendProvider: ProviderModule = {
  providerKey: "resend",
  defaultBaseUrls: { direct: "https://api.resend.com" },
  settingsFromEnv: (read) => defaultSenderFrom(read),
  create: () => new ResendAdapter(),
};
