// The Brave stand-in answers like Brave Search: token and parameter problems are both 422s told apart by
// `error.code`, results sit under `web.results` for the web and under `results` for news and images.
import { SANDBOX_API_KEYS } from "../src/app";
import { useSandbox } from "./helpers/sandbox";

const sandbox = useSandbox();
const keys: Record<string, string> = SANDBOX_API_KEYS;
const get = async (path: string, token: string | undefined = keys.brave) => {
  const res = await fetch(`${sandbox().url}/brave${path}`, {
    headers: token ? { "X-Subscription-Token": token, Accept: "application/json" } : {},
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
};

describe("Brave Search stand-in", () => {
  it("answers web, news and image searches in their own shapes, with rate-limit headers", async () => {
    const web = await get("/res/v1/web/search?q=coffee&count=2");
    expect(web.status).toBe(200);
    expect(web.headers.get("x-ratelimit-remaining")).toBeTruthy();
    expect(web.body).toMatchObject({
      type: "search",
      query: { original: "coffee" },
      web: { results: [{ url: "https://example.com/coffee/1" }, {}] },
    });
    expect((await get("/res/v1/news/search?q=coffee&freshness=pw")).body).toMatchObject({ type: "news", results: expect.any(Array) });
    const images = await get("/res/v1/images/search?q=coffee&safesearch=strict&count=1");
    expect(images.body.results).toEqual([
      expect.objectContaining({ properties: expect.objectContaining({ url: "https://photos.example.com/coffee/1.jpg" }) }),
    ]);
  });

  it("refuses a bad token and bad parameters with 422s that name the problem", async () => {
    expect(await get("/res/v1/web/search?q=coffee", "wrong")).toMatchObject({
      status: 422,
      body: { type: "ErrorResponse", error: { code: "SUBSCRIPTION_TOKEN_INVALID", status: 422 } },
    });
    expect(await get("/res/v1/web/search?count=2")).toMatchObject({
      status: 422,
      body: { error: { code: "VALIDATION", meta: { errors: [{ loc: ["query", "q"] }] } } },
    });
    expect((await get("/res/v1/web/search?q=coffee&count=21")).body.error.meta.errors[0].loc).toEqual(["query", "count"]);
    expect((await get("/res/v1/news/search?q=coffee&freshness=hour")).body.error.meta.errors[0].loc).toEqual(["query", "freshness"]);
    expect((await get("/res/v1/images/search?q=coffee&safesearch=moderate")).body.error.meta.errors[0].loc).toEqual([
      "query",
      "safesearch",
    ]);
  });
});
