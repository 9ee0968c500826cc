// OpenAI text to speech (speech.synthesize): POST {baseUrl}/audio/speech {model: tts-1, input, voice,
// response_format: mp3} → the MP3 bytes (audio/mpeg; the rail hands them over as a BinaryBody); errors
// {error: {message, type, param, code}}. The contract caps text at 1,000 characters, the length the
// price is for.
import type { BinaryBody } from "../domain/rail-port";
import { InputReader, inputRefusal } from "./input";
import { openAiError } from "./openai-error";
import type { CapabilityHandler } from "./provider-table";
import { invalidResponse, isRecord } from "./vendor-error";
import { bearerAuth } from "./vendor-key";

const SPEECH_MODEL = "tts-1";
const VOICES = ["alloy", "ash", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer"] as const;
const MAX_CHARACTERS = 1000;

function isBinary(body: unknown): body is BinaryBody {
  return isRecord(body) && body.kind === "binary" && typeof body.base64 === "string";
}

/** speech.synthesize as this vendor API speaks it, for `providerKey` (every OpenAI-compatible vendor). */
export function speech(providerKey: string): CapabilityHandler {
  return {
    request(input, ctx) {
      const read = new InputReader(providerKey, input);
      const text = read.limitedString("text", MAX_CHARACTERS);
      const voice = (read.string("voice") ?? "alloy").toLowerCase();
      if (!(VOICES as readonly string[]).includes(voice))
        throw inputRefusal(providerKey, `voice must be one of OpenAI's ${VOICES.join(", ")}`, "voice");
      return {
        method: "POST",
        url: `${ctx.baseUrl}/audio/speech`,
        headers: bearerAuth(ctx),
        body: { model: SPEECH_MODEL, input: text, voice, response_format: "mp3" },
      };
    },

    parse(res, input) {
      if (res.status !== 200) throw openAiError(providerKey, res);
      if (!isBinary(res.body) || res.body.contentType !== "audio/mpeg") throw invalidResponse(providerKey, res, "without MP3 audio");
      const requestId = res.headers["x-request-id"];
      return {
        status: "completed",
        ...(requestId ? { providerMessageId: requestId } : {}),
        data: {
          audioBase64: res.body.base64,
          contentType: "audio/mpeg",
          format: "mp3",
          characters: new InputReader(providerKey, input).string("text", true).length,
        },
      };
    },
  };
}
