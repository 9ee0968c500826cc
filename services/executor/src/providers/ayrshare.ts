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
  type ProviderContext,
  type ProviderResult,
  type VendorCalls,
} from "../domain/provider-port";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";
import { defineProvider, type ProviderSettingsMap } from "./provider-table";
import { optionalSetting } from "./provider-settings";
import { bearerAuth } from "./vendor-key";

const KEY = "ayrshare";

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

/** The channels named, lower-cased and once each; refused when Ayrshare has no such network. */
function channelsOf(input: CapabilityInput): string[] {
  const channels = new InputReader(KEY, input).strings("channels", true).map((c) => c.toLowerCase());
  const unknown = channels.filter((c) => !CHANNELS[c]);
  if (unknown.length)
    throw new ProviderError(
      "invalid_input",
      KEY,
      `unsupported channels: ${unknown.join(", ")}; supported: ${Object.keys(CHANNELS).join(", ")}`,
      { blame: "input", field: "channels" },
    );
  return [...new Set(channels)];
}

/** What a quote approves: the channels (as Ayrshare's networks, in order), the text, the media and the schedule. */
function postSubject(input: CapabilityInput): string {
  const read = new InputReader(KEY, input);
  const platforms = [...new Set(channelsOf(input).map((c) => (CHANNELS[c] as { limitKey: string }).limitKey))].sort();
  return JSON.stringify([platforms, read.string("text", true), read.strings("mediaUrls"), read.string("scheduleAt") ?? null]);
}

/** The approved post: refused unless approved is true and a profile of the caller's is named (the executor checked the approval and the owner). */
function approvedPost(input: CapabilityInput): { channels: string[]; text: string; profileKey: string } {
  const read = new InputReader(KEY, input);
  const channels = channelsOf(input);
  const text = read.string("text", true);
  if (input.approved !== true) throw inputRefusal(KEY, "a human must approve the quoted post: send approved true", "approved");
  const profileKey = read.string("profileId");
  if (!profileKey)
    throw inputRefusal(
      KEY,
      "no linked social accounts: a post goes only to accounts you linked to your own profile",
      "profileId",
      LINK_FIRST,
    );
  return { channels, text, profileKey };
}

/** The approval the executor issued for this quote (ApprovalRule): without one the quote could not be approved, so it is not asked. */
function issuedQuote(input: CapabilityInput): { broadcastQuoteId: string; expiresAt: string } {
  const read = new InputReader(KEY, input);
  const broadcastQuoteId = read.string("broadcastQuoteId");
  const expiresAt = read.string("broadcastQuoteExpiresAt");
  if (!broadcastQuoteId || !expiresAt)
    throw new ProviderError("invalid_input", KEY, "no approval was issued for this quote (the executor issues it)");
  return { broadcastQuoteId, expiresAt };
}

/** The Business plan's SSO domain and private key generateJWT needs; a deployment without them cannot link profiles. */
function linkSettings(ctx: ProviderContext): { profileDomain: string; privateKey: string } {
  const profileDomain = ctx.settings?.profileDomain;
  const privateKey = ctx.settings?.privateKey;
  if (!profileDomain || !privateKey)
    throw new ProviderError("invalid_input", KEY, "profile linking is not configured here (AYRSHARE_PROFILE_DOMAIN, AYRSHARE_PRIVATE_KEY)");
  return { profileDomain, privateKey };
}

function vendorFailure(res: RailResponse): ProviderError {
  const code = isRecord(res.body) && typeof res.body.code === "number" ? String(res.body.code) : undefined;
  return vendorError(KEY, res, { ...(code ? { code } : {}), message: stringField(res.body, "message") });
}

/** Ayrshare's answer to a post, per channel (its `twitter` is our `x`). */
function published(res: RailResponse): ProviderResult {
  if (res.status !== 200) throw vendorFailure(res);
  const b = res.body;
  const postIds = isRecord(b) && Array.isArray(b.postIds) ? b.postIds.filter(isRecord) : undefined;
  const id = stringField(b, "id");
  if (!postIds || !id) throw invalidResponse(KEY, res, "without id and postIds");
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

/** The profile's link page (generateJWT), or a new profile for the caller when they name none. */
function profileLinkRequest(input: CapabilityInput, ctx: ProviderContext): ProviderHttpRequest {
  const { profileDomain, privateKey } = linkSettings(ctx);
  const profileKey = new InputReader(KEY, input).string("profileId");
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

/** Creates the caller's profile unless they named one they own, then asks for its link page. */
async function linkProfile(
  input: CapabilityInput,
  ctx: ProviderContext,
  vendor: VendorCalls,
  nowMs: () => number,
): Promise<ProviderResult> {
  const { profileDomain, privateKey } = linkSettings(ctx);
  const named = new InputReader(KEY, input).string("profileId");
  let profileKey = named;
  if (!profileKey) {
    // A new profile is a billed seat on our account: from here on the vendor has acted.
    const created = await vendor.send(profileLinkRequest({}, ctx), { acts: true });
    if (created.status !== 200) throw vendorFailure(created);
    profileKey = stringField(created.body, "profileKey");
    if (!profileKey) throw invalidResponse(KEY, created, "without profileKey");
  }
  const jwt = await vendor.send({
    method: "POST",
    url: `${ctx.baseUrl}/api/profiles/generateJWT`,
    headers: bearerAuth(ctx),
    body: { domain: profileDomain, privateKey, profileKey },
  });
  if (jwt.status !== 200) throw vendorFailure(jwt);
  const linkUrl = stringField(jwt.body, "url");
  if (!linkUrl) throw invalidResponse(KEY, jwt, "without url");
  return {
    status: "created",
    providerMessageId: profileKey,
    ...(named ? {} : { createdResources: [{ kind: PROFILE_KIND, resourceId: profileKey }] }),
    data: { profileId: profileKey, linkUrl, linkExpiresAt: new Date(nowMs() + LINK_TTL_MS).toISOString(), created: !named },
  };
}

/** A number setting, else its default. */
const numberSetting = (settings: ProviderSettingsMap, name: string, fallback: number) =>
  settings[name] ? Number(settings[name]) : fallback;

/** Ayrshare as a table; `nowMs` dates the link page's expiry (tests bring their own clock). */
export function defineAyrshare(nowMs: () => number = Date.now) {
  return defineProvider({
    key: KEY,
    defaultBaseUrls: { direct: "https://api.ayrshare.com" },
    /** Account settings: credits per channel, quote lifetime, the Business plan's SSO domain and private key (generateJWT). */
    settingsFromEnv: (read) => ({
      ...optionalSetting("creditsPerChannel", read("BROADCAST_CREDITS_PER_CHANNEL")),
      ...optionalSetting("quoteTtlMs", read("BROADCAST_QUOTE_TTL_MS")),
      ...optionalSetting("profileDomain", read("AYRSHARE_PROFILE_DOMAIN")),
      ...optionalSetting("privateKey", read("AYRSHARE_PRIVATE_KEY")),
    }),
    approvals: (settings): ApprovalRule[] => [
      {
        issuedBy: "broadcast.message.quote",
        requiredBy: "broadcast.message.send",
        field: "broadcastQuoteId",
        expiresField: "broadcastQuoteExpiresAt",
        idPrefix: "bq",
        ttlMs: numberSetting(settings, "quoteTtlMs", DEFAULT_QUOTE_TTL_MS),
        subject: postSubject,
      },
    ],
    capabilities: (settings) => ({
      "broadcast.message.quote": {
        request(input, ctx) {
          channelsOf(input);
          issuedQuote(input);
          return {
            method: "POST",
            url: `${ctx.baseUrl}/api/validate/postLength`,
            headers: bearerAuth(ctx),
            body: { post: new InputReader(KEY, input).string("text", true) },
          };
        },
        parse(res, input) {
          if (res.status !== 200) throw vendorFailure(res);
          const creditsPerChannel = numberSetting(settings, "creditsPerChannel", DEFAULT_CREDITS_PER_CHANNEL);
          const b = res.body;
          const limits = isRecord(b) && isRecord(b.maxCharLimits) ? b.maxCharLimits : undefined;
          if (!isRecord(b) || !limits) throw invalidResponse(KEY, res, "without maxCharLimits");
          const perChannel = channelsOf(input).map((channel) => {
            const { prefix, limitKey } = CHANNELS[channel] as { prefix: string; limitKey: string };
            const length = b[`${prefix}WeightedLength`];
            const valid = b[`${prefix}Valid`];
            const max = limits[limitKey];
            if (typeof length !== "number" || typeof valid !== "boolean" || typeof max !== "number")
              throw invalidResponse(KEY, res, `without a length check for ${channel}`);
            return { channel, weightedLength: length, maxLength: max, valid, creditsEstimate: valid ? creditsPerChannel : 0 };
          });
          const { broadcastQuoteId, expiresAt } = issuedQuote(input);
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
        },
      },
      "broadcast.message.send": {
        resourceFields: { profileId: PROFILE_KIND },
        request(input, ctx) {
          const { channels, text, profileKey } = approvedPost(input);
          const read = new InputReader(KEY, input);
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
        },
        parse: published,
      },
      "broadcast.profile.link": {
        resourceFields: { profileId: PROFILE_KIND },
        request: profileLinkRequest,
        flow: (input, ctx, vendor) => linkProfile(input, ctx, vendor, nowMs),
      },
    }),
  });
}

export const ayrshareProvider = defineAyrshare();
