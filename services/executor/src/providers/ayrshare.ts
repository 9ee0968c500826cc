// Ayrshare (`Authorization: Bearer`; errors {status: "error", code, message}):
// - broadcast.message.quote: POST /api/validate/postLength {post} gives each network's weighted length,
//   limit and validity without posting. The quote prices the later real post per valid channel and
//   must be approved before anything is published;
// - broadcast.message.send: POST /api/post {post, platforms, mediaUrls?, scheduleDate?, idempotencyKey}
//   → {status, id, postIds: [{platform, status, id, postUrl}]}: the approved quote's text and channels
//   (its broadcastQuoteId must be theirs), posted once per execution (the idempotency key is Ayrshare's).
// The quote's id is `broadcastQuoteId` (bq_...), not `quoteId`: an execute body's quoteId is the platform's
// own quote of a price.
import { createHash } from "node:crypto";
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import {
  ProviderError,
  type CapabilityInput,
  type ProviderAdapter,
  type ProviderContext,
  type ProviderResult,
} from "../domain/provider-port";
import { assertCapability } from "./provider";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import type { ProviderModule } from "./provider-module";
import { optionalSetting } from "./provider-settings";
import { bearerAuth } from "./bearer-auth";

/** Our channel names → Ayrshare's response field prefix and `maxCharLimits` key. */
const CHANNELS: Readonly<Record<string, { prefix: string; limitKey: string }>> = {
  x: { prefix: "twitter", limitKey: "twitter" },
  twitter: { prefix: "twitter", limitKey: "twitter" },
  linkedin: { prefix: "linkedIn", limitKey: "linkedin" },
  facebook: { prefix: "facebook", limitKey: "facebook" },
  instagram: { prefix: "instagram", limitKey: "instagram" },
  tiktok: { prefix: "tikTok", limitKey: "tiktok" },
  bluesky: { prefix: "bluesky", limitKey: "bluesky" },
  threads: { prefix: "threads", limitKey: "threads" },
  pinterest: { prefix: "pinterest", limitKey: "pinterest" },
  reddit: { prefix: "reddit", limitKey: "reddit" },
  youtube: { prefix: "youtube", limitKey: "youtube" },
  gmb: { prefix: "gmb", limitKey: "gmb" },
};

/** Credits one channel of the eventual post costs (the catalog's broadcast.message.send price), unless configured. */
export const DEFAULT_CREDITS_PER_CHANNEL = 125;
/** How long a quote stays valid for approval. */
const QUOTE_TTL_MS = 15 * 60_000;

export class AyrshareAdapter implements ProviderAdapter {
  readonly providerKey = "ayrshare";
  readonly capabilityKeys = ["broadcast.message.quote", "broadcast.message.send"] as const;

  constructor(
    private readonly creditsPerChannel = DEFAULT_CREDITS_PER_CHANNEL,
    private readonly nowMs: () => number = Date.now,
  ) {}

  private channels(input: CapabilityInput): string[] {
    const channels = new InputReader(this.providerKey, input).strings("channels", true).map((c) => c.toLowerCase());
    const unknown = channels.filter((c) => !CHANNELS[c]);
    if (unknown.length)
      throw new ProviderError(
        "invalid_input",
        this.providerKey,
        `unsupported channels: ${unknown.join(", ")}; supported: ${Object.keys(CHANNELS).join(", ")}`,
        { blame: "input" },
      );
    return [...new Set(channels)];
  }

  /** The quote id of these channels and text: the same ones always get the same id, so approving a repeated quote is idempotent. */
  private quoteIdOf(channels: readonly string[], text: string): string {
    return `bq_${createHash("sha256")
      .update(JSON.stringify([[...channels].sort(), text]))
      .digest("base64url")
      .slice(0, 22)}`;
  }

  /** The approved post: refused unless approved is true and broadcastQuoteId is the one quoted for these channels and text. */
  private approvedPost(input: CapabilityInput): { channels: string[]; text: string } {
    const read = new InputReader(this.providerKey, input);
    const channels = this.channels(input);
    const text = read.string("text", true);
    const refuse = (field: string, message: string): never => {
      throw inputRefusal(this.providerKey, message, field);
    };
    if (input.approved !== true) refuse("approved", "a human must approve the quoted post: send approved true");
    if (read.string("broadcastQuoteId", true) !== this.quoteIdOf(channels, text))
      refuse(
        "broadcastQuoteId",
        "broadcastQuoteId is not the quote of these channels and text: quote them with broadcast.message.quote and send what was quoted",
      );
    return { channels, text };
  }

  buildRequest(capabilityKey: string, input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
    assertCapability(this, capabilityKey);
    if (capabilityKey === "broadcast.message.send") {
      const { channels, text } = this.approvedPost(input);
      const read = new InputReader(this.providerKey, input);
      const mediaUrls = read.strings("mediaUrls");
      const scheduleAt = read.string("scheduleAt");
      return {
        method: "POST",
        url: `${ctx.baseUrl}/api/post`,
        headers: bearerAuth(ctx),
        body: {
          post: text,
          platforms: [...new Set(channels.map((c) => (CHANNELS[c] as { limitKey: string }).limitKey))],
          ...(mediaUrls.length ? { mediaUrls } : {}),
          ...(scheduleAt ? { scheduleDate: scheduleAt } : {}),
          ...(ctx.idempotencyKey ? { idempotencyKey: ctx.idempotencyKey } : {}),
        },
      };
    }
    this.channels(input);
    return {
      method: "POST",
      url: `${ctx.baseUrl}/api/validate/postLength`,
      headers: bearerAuth(ctx),
      body: { post: new InputReader(this.providerKey, input).string("text", true) },
    };
  }

  parseResponse(capabilityKey: string, res: RailResponse, input: CapabilityInput): ProviderResult {
    assertCapability(this, capabilityKey);
    if (res.status !== 200) {
      const code = isRecord(res.body) && typeof res.body.code === "number" ? String(res.body.code) : undefined;
      throw vendorError(this.providerKey, res, { ...(code ? { code } : {}), message: stringField(res.body, "message") });
    }
    if (capabilityKey === "broadcast.message.send") return this.published(res);
    const b = res.body;
    const limits = isRecord(b) && isRecord(b.maxCharLimits) ? b.maxCharLimits : undefined;
    if (!isRecord(b) || !limits) throw invalidResponse(this.providerKey, res, "without maxCharLimits");
    const channels = this.channels(input);
    const perChannel = channels.map((channel) => {
      const { prefix, limitKey } = CHANNELS[channel] as { prefix: string; limitKey: string };
      const length = b[`${prefix}WeightedLength`];
      const valid = b[`${prefix}Valid`];
      const max = limits[limitKey];
      if (typeof length !== "number" || typeof valid !== "boolean" || typeof max !== "number")
        throw invalidResponse(this.providerKey, res, `without a length check for ${channel}`);
      return { channel, weightedLength: length, maxLength: max, valid, creditsEstimate: valid ? this.creditsPerChannel : 0 };
    });
    const broadcastQuoteId = this.quoteIdOf(channels, new InputReader(this.providerKey, input).string("text", true));
    return {
      status: "quoted",
      providerMessageId: broadcastQuoteId,
      data: {
        broadcastQuoteId,
        perChannel,
        creditsEstimate: perChannel.reduce((sum, c) => sum + c.creditsEstimate, 0),
        expiresAt: new Date(this.nowMs() + QUOTE_TTL_MS).toISOString(),
        approvalRequired: true,
      },
    };
  }

  /** Ayrshare's answer to a post, per channel (its `twitter` is our `x`). */
  private published(res: RailResponse): ProviderResult {
    const b = res.body;
    const postIds = isRecord(b) && Array.isArray(b.postIds) ? b.postIds.filter(isRecord) : undefined;
    const id = stringField(b, "id");
    if (!postIds || !id) throw invalidResponse(this.providerKey, res, "without id and postIds");
    return {
      status: "sent",
      providerMessageId: id,
      data: {
        postId: id,
        status: stringField(b, "status") ?? null,
        posts: postIds.map((p) => {
          const platform = stringField(p, "platform") ?? null;
          return {
            channel: platform === "twitter" ? "x" : platform,
            status: stringField(p, "status") ?? null,
            postUrl: stringField(p, "postUrl") ?? null,
          };
        }),
      },
    };
  }
}

export const ayrshareProvider: ProviderModule = {
  providerKey: "ayrshare",
  defaultBaseUrls: { direct: "https://api.ayrshare.com" },
  settingsFromEnv: (read) => optionalSetting("creditsPerChannel", read("BROADCAST_CREDITS_PER_CHANNEL")),
  create: (s) => new AyrshareAdapter(s.creditsPerChannel ? Number(s.creditsPerChannel) : DEFAULT_CREDITS_PER_CHANNEL),
};
