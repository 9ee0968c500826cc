// ElevenLabs text to speech (speech.synthesize): POST {baseUrl}/v1/text-to-speech/<voice_id>/with-timestamps
// ?output_format=mp3_44100_128 with `xi-api-key` and {text, model_id} → 200 {audio_base64, alignment,
// normalized_alignment}: the JSON form of the audio, so the answer needs no binary transport. Errors:
// {detail: {status, message}} (401 invalid_api_key, 400, 429 too_many_concurrent_requests), or 422
// {detail: [{loc, msg, type}]}. The contract caps text at 1,000 characters, the length the price is for.
import type { ProviderHttpRequest } from "../domain/rail-port";
import { ProviderError } from "../domain/provider-port";
import { InputReader } from "./input";
import { ourKeyAs } from "./vendor-key";
import { defineProvider } from "./provider-table";
import { invalidResponse, isRecord, stringField, vendorError } from "./vendor-error";

const KEY = "elevenlabs";

/** ElevenLabs' premade voices by name (a caller may also give a voice id). */
const PREMADE_VOICES: Readonly<Record<string, string>> = {
  rachel: "21m00Tcm4TlvDq8ikWAM",
  adam: "pNInz6obpgDQGcFmaJgB",
  antoni: "ErXwobaYiN019PkySvjV",
  bella: "EXAVITQu4vr4xnSDxMaL",
  josh: "TxGEqnHWrfWFTfGW9XjX",
};
const VOICE_ID = /^[A-Za-z0-9]{20}$/;
const MODEL_ID = "eleven_multilingual_v2";
const OUTPUT_FORMAT = "mp3_44100_128";
const MAX_CHARACTERS = 1000;

/** ElevenLabs' error detail as a code and a message. */
function detailOf(body: unknown): { code?: string; message?: string } {
  const detail = isRecord(body) ? body.detail : undefined;
  if (isRecord(detail)) return { code: stringField(detail, "status"), message: stringField(detail, "message") };
  if (Array.isArray(detail))
    return {
      message: detail
        .filter(isRecord)
        .map((d) => `${Array.isArray(d.loc) ? d.loc.join(".") : "input"}: ${String(d.msg)}`)
        .join("; "),
    };
  return {};
}

export const elevenlabsProvider = defineProvider({
  key: KEY,
  defaultBaseUrls: { direct: "https://api.elevenlabs.io" },
  capabilities: {
    "speech.synthesize": {
      request(input, ctx): ProviderHttpRequest {
        const read = new InputReader(KEY, input);
        const text = read.limitedString("text", MAX_CHARACTERS);
        const voice = read.string("voice") ?? "rachel";
        const voiceId = PREMADE_VOICES[voice.toLowerCase()] ?? (VOICE_ID.test(voice) ? voice : undefined);
        if (!voiceId)
          throw new ProviderError(
            "invalid_input",
            KEY,
            `voice must be an ElevenLabs voice id or one of ${Object.keys(PREMADE_VOICES).join(", ")}`,
            { blame: "input", field: "voice" },
          );
        return {
          method: "POST",
          url: `${ctx.baseUrl}/v1/text-to-speech/${voiceId}/with-timestamps?output_format=${OUTPUT_FORMAT}`,
          headers: ourKeyAs(ctx, "xi-api-key"),
          body: { text, model_id: MODEL_ID },
        };
      },
      parse(res, input) {
        if (res.status !== 200) throw vendorError(KEY, res, detailOf(res.body));
        const audio = stringField(res.body, "audio_base64");
        if (!audio) throw invalidResponse(KEY, res, "without audio_base64");
        const requestId = res.headers["request-id"];
        return {
          status: "completed",
          ...(requestId ? { providerMessageId: requestId } : {}),
          data: {
            audioBase64: audio,
            contentType: "audio/mpeg",
            format: OUTPUT_FORMAT,
            characters: new InputReader(KEY, input).string("text", true).length,
          },
        };
      },
    },
  },
});
