// Ayrshare stand-in: POST /api/validate/postLength {post} → weighted length and validity per social
// network plus `maxCharLimits` (the check a broadcast quote needs before a real post); POST /api/post
// {post, platforms, mediaUrls?, scheduleDate?, idempotencyKey?} → {status, id, postIds[], post} (a
// repeated idempotencyKey answers the first post again, nothing is posted twice); auth is
// `Authorization: Bearer API_KEY`; errors {action, status: "error", code, message}.
import { randomBytes } from "node:crypto";
import {
  authToken,
  isObject,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
  type SandboxVendor,
} from "../http/vendor";

/** Ayrshare's documented per-network character limits. */
const MAX_CHAR_LIMITS = {
  bluesky: 300,
  facebook: 63206,
  gmb: 1500,
  instagram: 2200,
  linkedin: 3000,
  pinterest: 500,
  reddit: 10000,
  threads: 500,
  tiktok: 2200,
  twitter: 280,
  twitterLong: 25000,
  youtube: 5000,
} as const;

/** Response field prefix of each network (Ayrshare's camel-casing). */
const FIELD_PREFIX: Record<Exclude<keyof typeof MAX_CHAR_LIMITS, "twitterLong">, string> = {
  bluesky: "bluesky",
  facebook: "facebook",
  gmb: "gmb",
  instagram: "instagram",
  linkedin: "linkedIn",
  pinterest: "pinterest",
  reddit: "reddit",
  threads: "threads",
  tiktok: "tikTok",
  twitter: "twitter",
  youtube: "youtube",
};

function error(status: number, code: number, message: string, action = "post"): VendorReply {
  return { status, body: { action, status: "error", code, message } };
}

/** Networks the sandbox's Ayrshare profile has linked (telegram is not: posting there is refused). */
const LINKED = new Set([
  "bluesky",
  "facebook",
  "gmb",
  "instagram",
  "linkedin",
  "pinterest",
  "reddit",
  "threads",
  "tiktok",
  "twitter",
  "youtube",
]);

/** Public URL of a post on a network. */
function postUrl(network: string, id: string): string {
  return network === "twitter"
    ? `https://x.com/agentic_sandbox/status/${BigInt(`0x${id}`) % 10n ** 18n}`
    : `https://${network}.example/posts/${id}`;
}

export function ayrshareVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  const posted = new Map<string, VendorReply>();
  const post = (req: VendorRequest): VendorReply => {
    const b = req.body;
    const key = isObject(b) && typeof b.idempotencyKey === "string" ? b.idempotencyKey : undefined;
    const seen = key ? posted.get(key) : undefined;
    if (seen) return seen;
    const reply = publish(b);
    if (key && reply.status === 200) posted.set(key, reply);
    return reply;
  };
  return {
    key: "ayrshare",
    price: { amountAtomic: priceAtomic, description: "Ayrshare post check" },
    errorReply: (status, message) => error(status, status >= 500 ? 500 : 101, message),
    authenticate(req) {
      if (authToken(req, "Bearer") !== apiKey)
        return error(403, 102, "API Key not valid. Verify the API Key in your dashboard.", "authorization");
      return undefined;
    },
    routes: [
      { method: "POST", path: "/api/validate/postLength", handle: postLength },
      { method: "POST", path: "/api/post", handle: post },
    ],
  };
}

/** X counts URLs as 23 and characters outside the basic ranges as 2 (its weighted-length rule, simplified). */
function twitterWeight(post: string): number {
  let weight = 0;
  const withoutUrls = post.replace(/https?:\/\/\S+/g, () => {
    weight += 23;
    return "";
  });
  for (const ch of withoutUrls) {
    const cp = ch.codePointAt(0) ?? 0;
    weight += cp <= 0x10ff || (cp >= 0x2000 && cp <= 0x200d) || (cp >= 0x2010 && cp <= 0x201f) || (cp >= 0x2032 && cp <= 0x2037) ? 1 : 2;
  }
  return weight;
}

function postLength(req: VendorRequest): VendorReply {
  const b = req.body;
  if (!isObject(b) || typeof b.post !== "string")
    return error(400, 101, "Missing or incorrect parameters. Please verify with the docs. The post parameter is required.");
  const codePoints = [...b.post].length;
  const graphemes = [...new Intl.Segmenter("en", { granularity: "grapheme" }).segment(b.post)].length;
  const body: Record<string, unknown> = {};
  for (const [network, prefix] of Object.entries(FIELD_PREFIX) as Array<[keyof typeof FIELD_PREFIX, string]>) {
    const length = network === "twitter" ? twitterWeight(b.post) : network === "bluesky" ? graphemes : codePoints;
    body[`${prefix}WeightedLength`] = length;
    body[`${prefix}Valid`] = length <= MAX_CHAR_LIMITS[network];
  }
  body.twitterLongValid = twitterWeight(b.post) <= MAX_CHAR_LIMITS.twitterLong;
  body.maxCharLimits = MAX_CHAR_LIMITS;
  return { status: 200, body };
}

function publish(b: unknown): VendorReply {
  if (!isObject(b) || typeof b.post !== "string" || b.post.trim() === "")
    return error(400, 101, "Missing or incorrect parameters. Please verify with the docs. The post parameter is required.");
  if (!Array.isArray(b.platforms) || b.platforms.length === 0 || b.platforms.some((p) => typeof p !== "string"))
    return error(400, 101, "Missing or incorrect parameters. Please verify with the docs. The platforms parameter is required.");
  if (
    b.mediaUrls !== undefined &&
    (!Array.isArray(b.mediaUrls) || b.mediaUrls.some((u) => typeof u !== "string" || !/^https?:\/\//.test(u)))
  )
    return error(400, 101, "mediaUrls must be an array of http(s) URLs.");
  if (b.scheduleDate !== undefined && (typeof b.scheduleDate !== "string" || Number.isNaN(Date.parse(b.scheduleDate))))
    return error(400, 101, "scheduleDate must be an ISO 8601 date-time.");
  const platforms = b.platforms as string[];
  const unlinked = platforms.filter((p) => !LINKED.has(p));
  if (unlinked.length) return error(400, 156, `Social account not linked: ${unlinked.join(", ")}. Link it in the Ayrshare dashboard.`);
  const tooLong = platforms.filter((p) => {
    const limit = MAX_CHAR_LIMITS[p as keyof typeof MAX_CHAR_LIMITS];
    return (p === "twitter" ? twitterWeight(b.post as string) : [...(b.post as string)].length) > limit;
  });
  if (tooLong.length) return error(400, 110, `Post is too long for ${tooLong.join(", ")}.`);
  const scheduled = typeof b.scheduleDate === "string";
  const id = randomBytes(10).toString("hex");
  return {
    status: 200,
    body: {
      status: scheduled ? "scheduled" : "success",
      errors: [],
      postIds: platforms.map((platform) => {
        const postId = randomBytes(8).toString("hex");
        return {
          status: scheduled ? "scheduled" : "success",
          id: postId,
          platform,
          ...(scheduled ? {} : { postUrl: postUrl(platform, postId) }),
        };
      }),
      id,
      refId: randomBytes(12).toString("hex"),
      post: b.post,
      ...(scheduled ? { scheduleDate: b.scheduleDate } : {}),
    },
  };
}

export const ayrshareSandbox = {
  key: "ayrshare",
  apiKey: "sandbox-ayrshare-key",
  priceAtomic: "1000",
  create: ayrshareVendor,
} as const satisfies SandboxVendor;
