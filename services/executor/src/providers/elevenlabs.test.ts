import type { RailResponse } from "../domain/rail-port";
import { elevenlabsProvider } from "./elevenlabs";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter = providerAdapter(elevenlabsProvider);
const response = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

describe("ElevenLabs adapter (speech.synthesize)", () => {
  it("builds the with-timestamps call for a premade voice name or a voice id, with xi-api-key", () => {
    expect(
      adapter.buildRequest(
        "speech.synthesize",
        { text: "Hello", voice: "Adam" },
        { baseUrl: "https://api.elevenlabs.io", credentials: { apiKey: "xi" } },
      ),
    ).toEqual({
      method: "POST",
      url: "https://api.elevenlabs.io/v1/text-to-speech/pNInz6obpgDQGcFmaJgB/with-timestamps?output_format=mp3_44100_128",
      headers: { "xi-api-key": "xi" },
      body: { text: "Hello", model_id: "eleven_multilingual_v2" },
    });
    expect(
      adapter.buildRequest("speech.synthesize", { text: "Hi", voice: "21m00Tcm4TlvDq8ikWAM" }, { baseUrl: "https://x" }).url,
    ).toContain("/21m00Tcm4TlvDq8ikWAM/");
  });

  it("refuses text longer than the priced 1,000 characters and unknown voices, naming the field", () => {
    expect(() => adapter.buildRequest("speech.synthesize", { text: "a".repeat(1001) }, { baseUrl: "https://x" })).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "text" }),
    );
    expect(() => adapter.buildRequest("speech.synthesize", { text: "a", voice: "nobody" }, { baseUrl: "https://x" })).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "voice" }),
    );
  });

  it("maps {detail: {status, message}} errors; a 200 without audio is an invalid response", () => {
    expect(() =>
      adapter.parseResponse("speech.synthesize", response(401, { detail: { status: "invalid_api_key", message: "Invalid API key" } }), {
        text: "a",
      }),
    ).toThrow(expect.objectContaining({ kind: "http_4xx", blame: "provider", vendorCode: "invalid_api_key" }));
    expect(() => adapter.parseResponse("speech.synthesize", response(200, { alignment: {} }), { text: "a" })).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
  });

  it("synthesizes over the sandbox's direct API and returns MP3 audio as base64", async () => {
    const { result } = await routes.execute("elevenlabs", "direct", "speech.synthesize", { text: "Your order has shipped." });
    expect(result.data).toMatchObject({ contentType: "audio/mpeg", format: "mp3_44100_128", characters: 23 });
    const audio = Buffer.from(result.data.audioBase64 as string, "base64");
    expect([...audio.subarray(0, 2)]).toEqual([0xff, 0xfb]);
    expect(audio.subarray(4).toString("utf8")).toBe("Your order has shipped.");
  });

  it("maps the vendor's 429 (too many concurrent requests) to a retryable provider error", async () => {
    routes.sandbox().control.setFault({ provider: "elevenlabs", mode: "fail", status: 429, count: 1 });
    expect(await routes.executeError("elevenlabs", "direct", "speech.synthesize", { text: "x" })).toMatchObject({
      kind: "http_4xx",
      status: 429,
      retryable: true,
      blame: "provider",
    });
  });
});
