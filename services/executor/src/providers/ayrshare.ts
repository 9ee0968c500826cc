// Ayrshare (`Authorization: Bearer`; errors {status: "error", code, message}). Every post goes out as
// the caller's own user profile (`Profile-Key`), never as our primary profile (the platform's accounts):
// - broadcast.profile.link (a flow): POST /api/profiles {title} → {refId, profileKey} creates the caller's
//   profile (recorded as their `broadcast.profile`, whose id is its profileKey), unless they name one they
//   own; then POST /api/profiles/generateJWT {domain, privateKey, profileKey} → {token, url}: the page
//   where a person links the profile's social accounts (valid 5 minutes);
// - broadcast.message.quote: POST /api/validate/postLength {post} gives each network's weighted length,
//   limit and validity without posting. The quote prices the later real post per valid channel; its
//   broadcastQuoteId is an approval the executor issues and records for this caller, channels and text
//   (ApprovalRule below; domain/approvals.ts), handed back here with its expiry;
// - broadcast.message.send: POST /api/post {post, platforms, mediaUrls?, scheduleDate?, idempotencyKey}
//   with `Profile-Key: <profileId>` → {status, id, postIds: [{platform, status, id, postUrl}]}: the
//   approved quote's text and channels, to the caller's linked accounts, posted once per execution (the
//   idempotency key is Ayrshare's). The executor checks the approval and the profile's owner first.
// The quote's id is `broadcastQuoteId` (bq_...), not `quoteId`: an execute body's quoteId is the platform's
// own quote of a price.
import { randomBytes } from "node:crypto";
import type { ProviderHttpRequest, RailResponse } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import {
  ProviderError,
  type ApprovalRule,
  type CapabilityInput,
  type ProviderAdapter,
  type ProviderContext,
  type ProviderFlow,
  type ProviderResult,
  type VendorCalls,
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
/** How long a quote stays valid for approval, unless configured. */
export const DEFAULT_QUOTE_TTL_MS = 15 * 60_000;
/** What the executor records a caller's Ayrshare user profile as (its id is the profile's profileKey). */
export const PROFILE_KIND = "broadcast.profile";
/** How long Ayrshare's link page (its JWT) is valid. */
const LINK_TTL_MS = 5 * 60_000;

/** What a caller without a linked profile is told to do. */
const LINK_FIRST = [
  "Link your social accounts: POST /domains/broadcast/capabilities/profile-link/execute, have a person open its data.linkUrl and connect the accounts",
  "Then send this again with profileId set to its data.profileId",
];

/** Account settings: Business-plan SSO domain and private key (generateJWT), credits per channel, quote lifetime. */
export interface AyrshareSettings {
  creditsPerChannel?: number;
  quoteTtlMs?: number;
  profileDomain?: string;
  privateKey?: string;
}

export class AyrshareAdapter implements ProviderAdapter {
  readonly providerKey = "ayrshare";
  readonly capabilityKeys = ["broadcast.message.quote", "broadcast.message.send", "broadcast.profile.link"] as const;
  readonly resourceFields = {
    "broadcast.message.send": { profileId: PROFILE_KIND },
    "broadcast.profile.link": { profileId: PROFILE_KIND },
  };
  readonly approvals: readonly ApprovalRule[];
  readonly flows: Readonly<Record<string, ProviderFlow>> = {
    "broadcast.profile.link": (input, ctx, vendor) => this.linkProfile(input, ctx, vendor),
  };
  private readonly creditsPerChannel: number;

  constructor(
    settings: AyrshareSettings = {},
    private readonly nowMs: () => number = Date.now,
  ) {
    this.creditsPerChannel = settings.creditsPerChannel ?? DEFAULT_CREDITS_PER_CHANNEL;
    this.approvals = [
      {
        issuedBy: "broadcast.message.quote",
        requiredBy: "broadcast.message.send",
        field: "broadcastQuoteId",
        expiresField: "broadcastQuoteExpiresAt",
        idPrefix: "bq",
        ttlMs: settings.quoteTtlMs ?? DEFAULT_QUOTE_TTL_MS,
        subject: (input) => this.postSubject(input),
      },
    ];
  }

  /** What a quote approves: the channels (as Ayrshare's networks, in order), the text, the media and the schedule. */
  private postSubject(input: CapabilityInput): string {
    const read = new InputReader(this.providerKey, input);
    const platforms = [...new Set(this.channels(input).map((c) => (CHANNELS[c] as { limitKey: string }).limitKey))].sort();
    return JSON.stringify([platforms, read.string("text", true), read.strings("mediaUrls"), read.string("scheduleAt") ?? null]);
  }

  private channels(input: CapabilityInput): string[] {
    const channels = new InputReader(this.providerKey, input).strings("channels", true).map((c) => c.toLowerCase());
    const unknown = channels.filter((c) => !CHANNELS[c]);
    if (unknown.length)
      throw new ProviderError(
        "invalid_input",
        this.providerKey,
        `unsupported channels: ${unknown.join(", ")}; supported: ${Object.keys(CHANNELS).join(", ")}`,
        { blame: "input", field: "channels" },
      );
    return [...new Set(channels)];
  }

  /** The approved post: refused unless approved is true and a profile of the caller's is named (the executor checked the approval and the owner). */
  private approvedPost(input: CapabilityInput): { channels: string[]; text: string; profileKey: string } {
    const read = new InputReader(this.providerKey, input);
    const channels = this.channels(input);
    const text = read.string("text", true);
    if (input.approved !== true)
      throw inputRefusal(this.providerKey, "a human must approve the quoted post: send approved true", "approved");
    const profileKey = read.string("profileId");
    if (!profileKey)
      throw inputRefusal(
        this.providerKey,
        "no linked social accounts: a post goes only to accounts you linked to your own profile",
        "profileId",
        LINK_FIRST,
      );
    return { channels, text, profileKey };
  }

  buildRequest(capabilityKey: string, input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
    assertCapability(this, capabilityKey);
    if (capabilityKey === "broadcast.profile.link") {
      const { profileDomain, privateKey } = this.linkSettings(ctx);
      const profileKey = new InputReader(this.providerKey, input).string("profileId");
      // The flow's main request: a new profile, or the link page of the caller's own one.
      return profileKey
        ? {
            method: "POST",
            url: `${ctx.baseUrl}/api/profiles/generateJWT`,
            headers: bearerAuth(ctx),
            body: { domain: profileDomain, privateKey, profileKey },
          }
        : {
            method: "POST",
            url: `${ctx.baseUrl}/api/profiles`,
            headers: bearerAuth(ctx),
            body: { title: `agentic-${randomBytes(12).toString("hex")}` },
          };
    }
    if (capabilityKey === "broadcast.message.send") {
      const { channels, text, profileKey } = this.approvedPost(input);
      const read = new InputReader(this.providerKey, input);
      const mediaUrls = read.strings("mediaUrls");
      const scheduleAt = read.string("scheduleAt");
      return {
        method: "POST",
        url: `${ctx.baseUrl}/api/post`,
        // As the caller's own profile: without Profile-Key, Ayrshare posts to our primary profile's accounts.
        headers: { ...bearerAuth(ctx), "Profile-Key": profileKey },
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
    this.issuedQuote(input);
    return {
      method: "POST",
      url: `${ctx.baseUrl}/api/validate/postLength`,
      headers: bearerAuth(ctx),
      body: { post: new InputReader(this.providerKey, input).string("text", true) },
    };
  }

  parseResponse(capabilityKey: string, res: RailResponse, input: CapabilityInput): ProviderResult {
    assertCapability(this, capabilityKey);
    if (res.status !== 200) throw this.vendorFailure(res);
    if (capabilityKey === "broadcast.message.send") return this.published(res);
    if (capabilityKey === "broadcast.profile.link") throw invalidResponse(this.providerKey, res, "outside its flow");
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
    const { broadcastQuoteId, expiresAt } = this.issuedQuote(input);
    return {
      status: "quoted",
      providerMessageId: broadcastQuoteId,
      data: {
        broadcastQuoteId,
        perChannel,
        creditsEstimate: perChannel.reduce((sum, c) => sum + c.creditsEstimate, 0),
        expiresAt,
        approvalRequired: true,
      },
    };
  }

  /** The approval the executor issued for this quote (ApprovalRule): without one the quote could not be approved, so it is not asked. */
  private issuedQuote(input: CapabilityInput): { broadcastQuoteId: string; expiresAt: string } {
    const read = new InputReader(this.providerKey, input);
    const broadcastQuoteId = read.string("broadcastQuoteId");
    const expiresAt = read.string("broadcastQuoteExpiresAt");
    if (!broadcastQuoteId || !expiresAt)
      throw new ProviderError("invalid_input", this.providerKey, "no approval was issued for this quote (the executor issues it)");
    return { broadcastQuoteId, expiresAt };
  }

  /** The Business plan's SSO domain and private key generateJWT needs; a deployment without them cannot link profiles. */
  private linkSettings(ctx: ProviderContext): { profileDomain: string; privateKey: string } {
    const profileDomain = ctx.settings?.profileDomain;
    const privateKey = ctx.settings?.privateKey;
    if (!profileDomain || !privateKey)
      throw new ProviderError(
        "invalid_input",
        this.providerKey,
        "profile linking is not configured here (AYRSHARE_PROFILE_DOMAIN, AYRSHARE_PRIVATE_KEY)",
      );
    return { profileDomain, privateKey };
  }

  /** Creates the caller's profile unless they named one they own, then asks for its link page. */
  private async linkProfile(input: CapabilityInput, ctx: ProviderContext, vendor: VendorCalls): Promise<ProviderResult> {
    const { profileDomain, privateKey } = this.linkSettings(ctx);
    const named = new InputReader(this.providerKey, input).string("profileId");
    let profileKey = named;
    if (!profileKey) {
      // A new profile is a billed seat on our account: from here on the vendor has acted.
      const created = await vendor.send(this.buildRequest("broadcast.profile.link", {}, ctx), { acts: true });
      if (created.status !== 200) throw this.vendorFailure(created);
      profileKey = stringField(created.body, "profileKey");
      if (!profileKey) throw invalidResponse(this.providerKey, created, "without profileKey");
    }
    const jwt = await vendor.send({
      method: "POST",
      url: `${ctx.baseUrl}/api/profiles/generateJWT`,
      headers: bearerAuth(ctx),
      body: { domain: profileDomain, privateKey, profileKey },
    });
    if (jwt.status !== 200) throw this.vendorFailure(jwt);
    const linkUrl = stringField(jwt.body, "url");
    if (!linkUrl) throw invalidResponse(this.providerKey, jwt, "without url");
    return {
      status: "created",
      providerMessageId: profileKey,
      ...(named ? {} : { createdResources: [{ kind: PROFILE_KIND, resourceId: profileKey }] }),
      data: { profileId: profileKey, linkUrl, linkExpiresAt: new Date(this.nowMs() + LINK_TTL_MS).toISOString(), created: !named },
    };
  }

  private vendorFailure(res: RailResponse): ProviderError {
    const code = isRecord(res.body) && typeof res.body.code === "number" ? String(res.body.code) : undefined;
    return vendorError(this.providerKey, res, { ...(code ? { code } : {}), message: stringField(res.body, "message") });
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
  settingsFromEnv: (read) => ({
    ...optionalSetting("creditsPerChannel", read("BROADCAST_CREDITS_PER_CHANNEL")),
    ...optionalSetting("quoteTtlMs", read("BROADCAST_QUOTE_TTL_MS")),
    ...optionalSetting("profileDomain", read("AYRSHARE_PROFILE_DOMAIN")),
    ...optionalSetting("privateKey", read("AYRSHARE_PRIVATE_KEY")),
  }),
  create: (s) =>
    new AyrshareAdapter({
      ...(s.creditsPerChannel ? { creditsPerChannel: Number(s.creditsPerChannel) } : {}),
      ...(s.quoteTtlMs ? { quoteTtlMs: Number(s.quoteTtlMs) } : {}),
      ...(s.profileDomain ? { profileDomain: s.profileDomain } : {}),
      ...(s.privateKey ? { privateKey: s.privateKey } : {}),
    }),
};
