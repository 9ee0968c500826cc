// ScrapeCreators stand-in (`x-api-key` on its API, and its paid hosts): GET endpoints per network, each in that
// network's own JSON shape, with `credits_remaining` on every success:
// - profiles: /v1/tiktok/profile, /v1/instagram/profile, /v1/youtube/channel, /v1/twitter/profile, /v1/threads/profile (?handle=)
// - search: /v1/tiktok/search/keyword (?query=&cursor=), /v1/youtube/search (?query=&continuationToken=)
// - comments: /v1/tiktok/video/comments (?url=&cursor=), /v1/youtube/video/comments (?url=&continuationToken=)
// Errors {success: false, message}; an unknown handle is a 404. Everything is derived deterministically
// from the handle, query or URL; the handle `ghost` does not exist.
import { createHash } from "node:crypto";
import {
  header,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
  type SandboxVendor,
} from "../http/vendor";

const PAGE = 3;
const CREDITS_REMAINING = 4200;

function error(status: number, message: string): VendorReply {
  return { status, body: { success: false, message } };
}

function ok(body: Record<string, unknown>): VendorReply {
  return { status: 200, body: { success: true, credits_remaining: CREDITS_REMAINING, ...body } };
}

/** A stable number from a text, for follower counts and ids. */
function numberOf(text: string, max: number): number {
  return parseInt(createHash("sha256").update(text).digest("hex").slice(0, 8), 16) % max;
}

function handleOf(req: VendorRequest): string | VendorReply {
  const handle = req.query.handle?.replace(/^@/, "").trim();
  if (!handle) return error(400, "handle is required");
  if (handle.toLowerCase() === "ghost") return error(404, "Profile not found");
  return handle;
}

/** Offset pagination behind an opaque cursor, as ScrapeCreators passes the networks' cursors through. */
function offsetOf(cursor: string | undefined): number | VendorReply {
  if (cursor === undefined) return 0;
  const n = Number(cursor);
  return Number.isInteger(n) && n >= 0 ? n : error(400, "Invalid cursor");
}

function postUrl(req: VendorRequest, host: RegExp): URL | VendorReply {
  if (!req.query.url) return error(400, "url is required");
  try {
    const url = new URL(req.query.url);
    return host.test(url.hostname) ? url : error(400, "Invalid url for this endpoint");
  } catch {
    return error(400, "Invalid url");
  }
}

const profiles = {
  tiktok(handle: string) {
    const followers = numberOf(`tt${handle}`, 5_000_000);
    return ok({
      user: {
        id: String(numberOf(handle, 1e9)),
        uniqueId: handle,
        nickname: `${handle} (TikTok)`,
        signature: `Videos by ${handle}`,
        verified: followers > 1_000_000,
        avatarLarger: `https://p16-sign.tiktokcdn.com/${handle}.jpeg`,
        bioLink: { link: `https://${handle}.example.com` },
      },
      stats: { followerCount: followers, followingCount: 120, heartCount: followers * 12, videoCount: 340 },
    });
  },
  instagram(handle: string) {
    const followers = numberOf(`ig${handle}`, 5_000_000);
    return ok({
      data: {
        user: {
          id: String(numberOf(handle, 1e9)),
          username: handle,
          full_name: `${handle} (Instagram)`,
          biography: `Photos by ${handle}`,
          is_verified: followers > 1_000_000,
          profile_pic_url_hd: `https://scontent.cdninstagram.com/${handle}.jpg`,
          external_url: `https://${handle}.example.com`,
          edge_followed_by: { count: followers },
          edge_follow: { count: 321 },
          edge_owner_to_timeline_media: { count: 88 },
        },
      },
    });
  },
  youtube(handle: string) {
    return ok({
      channelId: `UC${createHash("sha256").update(handle).digest("hex").slice(0, 22)}`,
      channel: `https://www.youtube.com/@${handle}`,
      name: `${handle} (YouTube)`,
      handle: `@${handle}`,
      description: `Videos from ${handle}`,
      avatar: { image: { sources: [{ url: `https://yt3.googleusercontent.com/${handle}=s900`, width: 900, height: 900 }] } },
      subscriberCount: numberOf(`yt${handle}`, 5_000_000),
      videoCount: 210,
      viewCount: 98_000_000,
      links: [`https://${handle}.example.com`],
    });
  },
  twitter(handle: string) {
    const followers = numberOf(`x${handle}`, 5_000_000);
    return ok({
      rest_id: String(numberOf(handle, 1e9)),
      is_blue_verified: followers > 1_000_000,
      legacy: {
        screen_name: handle,
        name: `${handle} (X)`,
        description: `Posts by ${handle}`,
        followers_count: followers,
        friends_count: 77,
        statuses_count: 5120,
        profile_image_url_https: `https://pbs.twimg.com/profile_images/${handle}_normal.jpg`,
        url: `https://t.co/${handle}`,
      },
    });
  },
  threads(handle: string) {
    return ok({
      id: String(numberOf(handle, 1e9)),
      username: handle,
      full_name: `${handle} (Threads)`,
      biography: `Threads by ${handle}`,
      follower_count: numberOf(`th${handle}`, 5_000_000),
      is_verified: false,
      profile_pic_url: `https://scontent.cdninstagram.com/threads/${handle}.jpg`,
      bio_links: [{ url: `https://${handle}.example.com` }],
    });
  },
};

function profileRoute(network: keyof typeof profiles) {
  return (req: VendorRequest): VendorReply => {
    const handle = handleOf(req);
    return typeof handle === "string" ? profiles[network](handle) : handle;
  };
}

function tiktokSearch(req: VendorRequest): VendorReply {
  const query = req.query.query?.trim();
  if (!query) return error(400, "query is required");
  const offset = offsetOf(req.query.cursor);
  if (typeof offset !== "number") return offset;
  const search_item_list = Array.from({ length: PAGE }, (_, i) => {
    const id = String(7_400_000_000_000_000_000n + BigInt(numberOf(`${query}${offset + i}`, 1e9)));
    return {
      aweme_info: {
        aweme_id: id,
        desc: `#${query.replace(/\s+/g, "")} video ${offset + i + 1}`,
        create_time: 1_767_225_600 + (offset + i) * 3600,
        author: { unique_id: `creator${offset + i + 1}`, nickname: `Creator ${offset + i + 1}` },
        statistics: { play_count: 10_000 * (i + 1), digg_count: 900 * (i + 1), comment_count: 40 * (i + 1), share_count: 12 },
        share_url: `https://www.tiktok.com/@creator${offset + i + 1}/video/${id}`,
      },
    };
  });
  return ok({ search_item_list, cursor: offset + PAGE, has_more: offset + PAGE < 9 });
}

function youtubeSearch(req: VendorRequest): VendorReply {
  const query = req.query.query?.trim();
  if (!query) return error(400, "query is required");
  const offset = offsetOf(req.query.continuationToken);
  if (typeof offset !== "number") return offset;
  const videos = Array.from({ length: PAGE }, (_, i) => {
    const id = createHash("sha256")
      .update(`${query}${offset + i}`)
      .digest("base64url")
      .slice(0, 11);
    return {
      type: "video",
      id,
      url: `https://www.youtube.com/watch?v=${id}`,
      title: `${query}: part ${offset + i + 1}`,
      channel: { id: `UCchannel${offset + i}`, title: `Channel ${offset + i + 1}`, handle: `@channel${offset + i + 1}` },
      viewCountInt: 50_000 * (i + 1),
      publishedTime: `2026-01-0${i + 1}T12:00:00.000Z`,
      lengthSeconds: 600,
    };
  });
  return ok({ videos, channels: [], playlists: [], shorts: [], continuationToken: offset + PAGE < 9 ? String(offset + PAGE) : null });
}

function tiktokComments(req: VendorRequest): VendorReply {
  const url = postUrl(req, /(^|\.)tiktok\.com$/);
  if (!(url instanceof URL)) return url;
  const offset = offsetOf(req.query.cursor);
  if (typeof offset !== "number") return offset;
  const comments = Array.from({ length: PAGE }, (_, i) => ({
    cid: String(7_400_000_000_000_000_000n + BigInt(offset + i)),
    text: `Comment ${offset + i + 1} on this video`,
    create_time: 1_767_312_000 - (offset + i) * 60,
    digg_count: 30 - i,
    reply_comment_total: i,
    user: { unique_id: `fan${offset + i + 1}`, nickname: `Fan ${offset + i + 1}` },
  }));
  return ok({ comments, cursor: offset + PAGE, has_more: offset + PAGE < 9, total: 9 });
}

function youtubeComments(req: VendorRequest): VendorReply {
  const url = postUrl(req, /(^|\.)(youtube\.com|youtu\.be)$/);
  if (!(url instanceof URL)) return url;
  const offset = offsetOf(req.query.continuationToken);
  if (typeof offset !== "number") return offset;
  const comments = Array.from({ length: PAGE }, (_, i) => ({
    id: `Ugz${offset + i}`,
    content: `Comment ${offset + i + 1} on this video`,
    publishedTime: `2026-01-0${9 - i}T10:00:00.000Z`,
    replyCount: i,
    engagement: { likes: 30 - i, replies: i },
    author: { name: `@viewer${offset + i + 1}`, channelId: `UCviewer${offset + i}` },
  }));
  return ok({ comments, continuationToken: offset + PAGE < 9 ? String(offset + PAGE) : null });
}

export function scrapecreatorsVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "scrapecreators",
    price: { amountAtomic: priceAtomic, description: "ScrapeCreators request" },
    authenticate: (req) => (header(req, "x-api-key") === apiKey ? undefined : error(401, "Invalid API key")),
    errorReply: error,
    routes: [
      { method: "GET", path: "/v1/tiktok/profile", handle: profileRoute("tiktok") },
      { method: "GET", path: "/v1/instagram/profile", handle: profileRoute("instagram") },
      { method: "GET", path: "/v1/youtube/channel", handle: profileRoute("youtube") },
      { method: "GET", path: "/v1/twitter/profile", handle: profileRoute("twitter") },
      { method: "GET", path: "/v1/threads/profile", handle: profileRoute("threads") },
      { method: "GET", path: "/v1/tiktok/search/keyword", handle: tiktokSearch },
      { method: "GET", path: "/v1/youtube/search", handle: youtubeSearch },
      { method: "GET", path: "/v1/tiktok/video/comments", handle: tiktokComments },
      { method: "GET", path: "/v1/youtube/video/comments", handle: youtubeComments },
    ],
  };
}

export const scrapecreatorsSandbox = {
  key: "scrapecreators",
  apiKey: "scrapecreators-sandbox-key",
  priceAtomic: "2000",
  create: scrapecreatorsVendor,
} as const satisfies SandboxVendor;
