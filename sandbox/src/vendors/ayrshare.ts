// Ayrshare stand-in: POST /api/validate/postLength {post} → weighted length and validity per social
// network plus `maxCharLimits` (the check a broadcast quote needs before a real post); POST /api/post
// {post, platforms, mediaUrls?, scheduleDate?, idempotencyKey?} → {status, id, postIds[], post} (a
// repeated idempotencyKey answers the first post again, nothing is posted twice). User profiles (the
// Business plan's): POST /api/profiles {title} → {status, title, refId, profileKey}; POST
// /api/profiles/generateJWT {domain, privateKey, profileKey} → {status, title, token, url}: the page
// where a person links the profile's social accounts, valid for 5 minutes (here GET /link?jwt&platforms
// links the listed networks, as the person would). A request with `Profile-Key: <profileKey>` acts as
// that profile (a post goes to its linked accounts only); without it, as the primary profile, whose
// accounts are the platform's own. Auth is `Authorization: Bearer API_KEY`; errors {action, status:
// "error", code, message}.
import { randomBytes } from "node:crypto";
import {
  authToken,
  header,
  isObject,
  type VendorContext,
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

/** The Business plan's SSO domain and private key generateJWT takes (the executor's AYRSHARE_PROFILE_DOMAIN and AYRSHARE_PRIVATE_KEY). */
export const AYRSHARE_PROFILE_DOMAIN = "agentic-sandbox";
export const AYRSHARE_PRIVATE_KEY = "-----BEGIN RSA PRIVATE KEY-----\nsandbox-ayrshare-private-key\n-----END RSA PRIVATE KEY-----";
/** How long a link page (its JWT) is valid, as Ayrshare documents it. */
const JWT_TTL_MS = 5 * 60_000;

/** Networks the sandbox's primary profile (the platform's own accounts) has linked (telegram is not: posting there is refused). */
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

/** A user profile: its title and the networks a person linked on its link page. */
interface Profile {
  title: string;
  refId: string;
  linked: Set<string>;
}

export function ayrshareVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  const posted = new Map<string, VendorReply>();
  const profiles = new Map<string, Profile>();
  /** Link page tokens → the profile key and when the page expires. */
  const jwts = new Map<string, { profileKey: string; expiresAt: number }>();

  /** The profile a request acts as (its Profile-Key), the primary profile without one, or an error reply. */
  const actingAs = (req: VendorRequest, action: string): { linked: ReadonlySet<string> } | VendorReply => {
    const key = header(req, "profile-key");
    if (key === undefined) return { linked: LINKED };
    const profile = profiles.get(key);
    return profile ?? error(403, 102, "Profile Key not valid. Verify the Profile Key.", action);
  };
  const post = (req: VendorRequest): VendorReply => {
    const as = actingAs(req, "post");
    if ("status" in as) return as;
    const b = req.body;
    const key = isObject(b) && typeof b.idempotencyKey === "string" ? b.idempotencyKey : undefined;
    const seen = key ? posted.get(key) : undefined;
    if (seen) return seen;
    const reply = publish(b, as.linked);
    if (key && reply.status === 200) posted.set(key, reply);
    return reply;
  };
  const createProfile = (req: VendorRequest): VendorReply => {
    const b = req.body;
    if (!isObject(b) || typeof b.title !== "string" || b.title.trim() === "")
      return error(400, 101, "Missing or incorrect parameters. Please verify with the docs. The title parameter is required.", "profiles");
    if ([...profiles.values()].some((p) => p.title === b.title))
      return error(400, 146, "Profile title already exists. Please choose a new title.", "profiles");
    const profileKey = [4, 4, 4, 4].map(() => randomBytes(4).toString("hex").toUpperCase().slice(0, 7)).join("-");
    const refId = randomBytes(20).toString("hex");
    profiles.set(profileKey, { title: b.title, refId, linked: new Set() });
    return { status: 200, body: { status: "success", title: b.title, refId, profileKey } };
  };
  const generateJwt = (req: VendorRequest, ctx: VendorContext): VendorReply => {
    const b = req.body;
    if (!isObject(b) || typeof b.domain !== "string" || typeof b.privateKey !== "string" || typeof b.profileKey !== "string")
      return error(400, 101, "Missing or incorrect parameters. domain, privateKey and profileKey are required.", "JWT");
    if (b.domain !== AYRSHARE_PROFILE_DOMAIN || b.privateKey !== AYRSHARE_PRIVATE_KEY)
      return error(400, 189, "Error generating JWT. Verify the domain and private key.", "JWT");
    const profile = profiles.get(b.profileKey);
    if (!profile) return error(403, 102, "Profile Key not valid. Verify the Profile Key.", "JWT");
    const token = randomBytes(24).toString("base64url");
    jwts.set(token, { profileKey: b.profileKey, expiresAt: ctx.now().getTime() + JWT_TTL_MS });
    const host = header(req, "host") ?? "localhost";
    const url = `http://${host}/ayrshare/link?domain=${encodeURIComponent(b.domain)}&jwt=${token}`;
    return { status: 200, body: { status: "success", title: profile.title, token, url } };
  };
  /** The link page: the person connects networks (the `platforms` listed) to the profile the JWT names. */
  const linkPage = (req: VendorRequest, ctx: VendorContext): VendorReply => {
    const jwt = jwts.get(req.query.jwt ?? "");
    if (!jwt || jwt.expiresAt <= ctx.now().getTime())
      return { status: 401, body: "This link has expired. Ask for a new one.", contentType: "text/plain" };
    const profile = profiles.get(jwt.profileKey) as Profile;
    const asked = (req.query.platforms ?? "").split(",").filter((p) => LINKED.has(p));
    for (const network of asked) profile.linked.add(network);
    return { status: 200, body: `Linked: ${[...profile.linked].sort().join(", ") || "nothing yet"}`, contentType: "text/plain" };
  };
  return {
    key: "ayrshare",
    price: { amountAtomic: priceAtomic, description: "Ayrshare post check" },
    errorReply: (status, message) => error(status, status >= 500 ? 500 : 101, message),
    authenticate(req) {
      // The link page is opened by a person's browser: the JWT in its URL is its credential.
      if (req.method === "GET" && req.path.toLowerCase() === "/link") return undefined;
      if (authToken(req, "Bearer") !== apiKey)
        return error(403, 102, "API Key not valid. Verify the API Key in your dashboard.", "authorization");
      return undefined;
    },
    routes: [
      { method: "POST", path: "/api/validate/postLength", handle: postLength },
      { method: "POST", path: "/api/post", handle: post },
      { method: "POST", path: "/api/profiles", handle: createProfile },
      { method: "POST", path: "/api/profiles/generateJWT", handle: generateJwt },
      { method: "GET", path: "/link", handle: linkPage },
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

/** Posts to `linked` networks only: a network the acting profile has not linked is refused (code 156). */
function publish(b: unknown, linked: ReadonlySet<string>): VendorReply {
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
  const unlinked = platforms.filter((p) => !linked.has(p));
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
