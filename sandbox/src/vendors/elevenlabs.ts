// ElevenLabs stand-in (API with `xi-api-key`): POST /v1/text-to-speech/:voiceId/with-timestamps
// ?output_format=... {text, model_id?} → {audio_base64, alignment, normalized_alignment} with a
// request-id header; errors {detail: {status, message}} (401 invalid_api_key, 400 voice_not_found,
// text_too_long) or 422 {detail: [{loc, msg, type}]}. The "audio" is a deterministic MP3 frame header
// followed by the text's bytes; alignment gives each character 50 ms.
import { randomUUID } from "node:crypto";
import {
  header,
  isObject,
  type SandboxVendor,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
} from "../http/vendor";

/** The premade voices the stand-in knows (ids as ElevenLabs publishes them). */
const VOICES = new Set([
  "21m00Tcm4TlvDq8ikWAM",
  "pNInz6obpgDQGcFmaJgB",
  "ErXwobaYiN019PkySvjV",
  "EXAVITQu4vr4xnSDxMaL",
  "TxGEqnHWrfWFTfGW9XjX",
]);
const OUTPUT_FORMATS = new Set(["mp3_44100_128", "mp3_44100_64", "mp3_22050_32", "pcm_16000", "pcm_24000"]);
const MODELS = new Set(["eleven_multilingual_v2", "eleven_turbo_v2_5", "eleven_flash_v2_5"]);
/** The longest text one request takes (eleven_multilingual_v2's limit). */
const MAX_TEXT = 10_000;

function problem(status: number, code: string, message: string): VendorReply {
  return { status, body: { detail: { status: code, message } } };
}

function synthesize(req: VendorRequest): VendorReply {
  const voiceId = req.params.voiceId ?? "";
  if (!VOICES.has(voiceId)) return problem(400, "voice_not_found", `A voice with the voice_id ${voiceId} was not found.`);
  const format = req.query.output_format ?? "mp3_44100_128";
  if (!OUTPUT_FORMATS.has(format)) return problem(400, "invalid_output_format", `Invalid output format: ${format}`);
  const b = req.body;
  if (!isObject(b) || typeof b.text !== "string")
    return { status: 422, body: { detail: [{ loc: ["body", "text"], msg: "field required", type: "value_error.missing" }] } };
  if (b.text.length > MAX_TEXT) return problem(400, "text_too_long", `Text is longer than ${MAX_TEXT} characters.`);
  if (b.model_id !== undefined && (typeof b.model_id !== "string" || !MODELS.has(b.model_id)))
    return problem(400, "model_not_found", `A model with model ID ${String(b.model_id)} does not exist.`);
  const audio = Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.from(b.text, "utf8")]).toString("base64");
  const characters = [...b.text];
  const alignment = {
    characters,
    character_start_times_seconds: characters.map((_, i) => i * 0.05),
    character_end_times_seconds: characters.map((_, i) => (i + 1) * 0.05),
  };
  return {
    status: 200,
    headers: { "request-id": randomUUID() },
    body: { audio_base64: audio, alignment, normalized_alignment: alignment },
  };
}

export function elevenlabsVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "elevenlabs",
    price: { amountAtomic: priceAtomic, description: "ElevenLabs text to speech" },
    authenticate: (req) => (header(req, "xi-api-key") === apiKey ? undefined : problem(401, "invalid_api_key", "Invalid API key")),
    errorReply: (status, message) => problem(status, status >= 500 ? "internal_error" : "invalid_request", message),
    routes: [{ method: "POST", path: "/v1/text-to-speech/:voiceId/with-timestamps", handle: synthesize }],
  };
}

export const elevenlabsSandbox = {
  key: "elevenlabs",
  apiKey: "sk_sandbox_elevenlabs_key",
  priceAtomic: "220000",
  create: elevenlabsVendor,
} as const satisfies SandboxVendor;
