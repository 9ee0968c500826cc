// Ayrshare stand-in: POST /api/validate/postLength {post} → weighted length and validity per social
// network plus `maxCharLimits` (the check a broadcast quote needs before a real post); auth is
// `Authorization: Bearer API_KEY`; errors {action, status: "error", code, message}.
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

export function ayrshareVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "ayrshare",
    price: { amountAtomic: priceAtomic, description: "Ayrshare post check" },
    errorReply: (status, message) => error(status, status >= 500 ? 500 : 101, message),
    authenticate(req) {
      if (authToken(req, "Bearer") !== apiKey)
        return error(403, 102, "API Key not valid. Verify the API Key in your dashboard.", "authorization");
      return undefined;
    },
    routes: [{ method: "POST", path: "/api/validate/postLength", handle: postLength }],
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

export const ayrshareSandbox = {
  key: "ayrshare",
  apiKey: "sandbox-ayrshare-key",
  priceAtomic: "1000",
  create: ayrshareVendor,
} as const satisfies SandboxVendor;
