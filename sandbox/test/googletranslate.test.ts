// The Google Cloud Translation stand-in answers like v2: the key in X-goog-api-key or `key=`, a bad key a 400
// carrying the API_KEY_INVALID reason, a missing one a 403, bad values 400 INVALID_ARGUMENT.
import { SANDBOX_API_KEYS } from "../src/app";
import { postJson, useSandbox } from "./helpers/sandbox";

const sandbox = useSandbox();
const keys: Record<string, string> = SANDBOX_API_KEYS;
const url = (path: string) => `${sandbox().url}/googletranslate/language/translate/v2${path}`;
const auth = () => ({ "X-goog-api-key": keys.googletranslate as string });

describe("Google Cloud Translation v2 stand-in", () => {
  it("translates (HTML-escaped unless format is text) and detects", async () => {
    const text = await postJson(url(""), { q: ["Where is the train station?"], target: "fr", format: "text" }, auth());
    expect(text.body).toEqual({ data: { translations: [{ translatedText: "Où est la gare ?", detectedSourceLanguage: "en" }] } });
    const html = await postJson(url(""), { q: "it's", target: "de", source: "en" }, auth());
    expect(html.body.data.translations).toEqual([{ translatedText: "it&#39;s" }]);
    const detected = await postJson(url("/detect"), { q: ["Wo ist der Bahnhof?", "¿Dónde está la estación?"] }, auth());
    expect(detected.body.data.detections.map((d: any[]) => d[0].language)).toEqual(["de", "es"]);
  });

  it("accepts the key as a query parameter too", async () => {
    const res = await postJson(`${url("/detect")}?key=${keys.googletranslate}`, { q: "hello world" });
    expect(res.status).toBe(200);
  });

  it("answers key and value problems in Google's error format", async () => {
    expect(await postJson(url("/detect"), { q: "hi" })).toMatchObject({
      status: 403,
      body: { error: { code: 403, status: "PERMISSION_DENIED" } },
    });
    expect(await postJson(url("/detect"), { q: "hi" }, { "X-goog-api-key": "AIza-wrong" })).toMatchObject({
      status: 400,
      body: { error: { status: "INVALID_ARGUMENT", details: [{ reason: "API_KEY_INVALID" }] } },
    });
    expect(await postJson(url(""), { q: "hi", target: "tlh" }, auth())).toMatchObject({
      status: 400,
      body: { error: { message: "Invalid Value", errors: [{ reason: "invalid", domain: "global" }] } },
    });
    expect((await postJson(url(""), { target: "de" }, auth())).body.error.message).toBe("Required Text");
  });
});
