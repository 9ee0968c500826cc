import type { ProviderAdapter } from "../domain/provider-port";
import type { RailResponse } from "../domain/rail-port";
import { openaiProvider } from "./openai";
import { providerAdapter } from "./registry";
import { useSandboxRoutes } from "./sandbox-route.fixture";

const routes = useSandboxRoutes();
const adapter: ProviderAdapter = providerAdapter(openaiProvider);
const ctx = { baseUrl: "https://api.openai.com/v1", credentials: { apiKey: "sk-1" } };
const res = (status: number, body: unknown): RailResponse => ({ status, headers: {}, body });

describe("OpenAI speech adapter (speech.synthesize)", () => {
  it("asks tts-1 for MP3 in an OpenAI voice (alloy by default)", () => {
    expect(adapter.buildRequest("speech.synthesize", { text: "Hello" }, ctx)).toEqual({
      method: "POST",
      url: "https://api.openai.com/v1/audio/speech",
      headers: { Authorization: "Bearer sk-1" },
      body: { model: "tts-1", input: "Hello", voice: "alloy", response_format: "mp3" },
    });
    expect(adapter.buildRequest("speech.synthesize", { text: "Hi", voice: "Nova" }, ctx).body).toMatchObject({ voice: "nova" });
  });

  it("refuses another route's voice and text over the priced 1,000 characters, naming the field", () => {
    expect(() => adapter.buildRequest("speech.synthesize", { text: "x", voice: "rachel" }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "voice" }),
    );
    expect(() => adapter.buildRequest("speech.synthesize", { text: "x".repeat(1001) }, ctx)).toThrow(
      expect.objectContaining({ kind: "invalid_input", field: "text" }),
    );
  });

  it("takes the answer only as MP3 bytes", () => {
    expect(() => adapter.parseResponse("speech.synthesize", res(200, "not audio"), { text: "x" })).toThrow(
      expect.objectContaining({ kind: "invalid_response" }),
    );
    expect(() =>
      adapter.parseResponse("speech.synthesize", res(429, { error: { message: "slow down", type: "rate_limit" } }), { text: "x" }),
    ).toThrow(expect.objectContaining({ kind: "http_4xx", retryable: true }));
  });

  it("synthesizes over the sandbox's API: the binary MP3 answer arrives intact, as base64", async () => {
    const { res: answer, result } = await routes.execute("openai", "direct", "speech.synthesize", { text: "Your order has shipped. ✓" });
    expect(answer.headers["content-type"]).toMatch(/^audio\/mpeg/);
    expect(result.data).toMatchObject({ contentType: "audio/mpeg", format: "mp3", characters: 25 });
    const audio = Buffer.from(result.data.audioBase64 as string, "base64");
    expect([...audio.subarray(0, 4)]).toEqual([0xff, 0xfb, 0x90, 0x64]);
    expect(audio.subarray(4).toString("utf8")).toBe("Your order has shipped. ✓");
  });
});
