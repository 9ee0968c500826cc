// OpenAI text-to-speech stand-in routes: POST /audio/speech (and /v1/audio/speech) {model: tts-1 |
// tts-1-hd | gpt-4o-mini-tts, input, voice, response_format?} → the audio bytes (audio/mpeg for mp3)
// with an x-request-id header; errors {error: {message, type, param, code}}. The "audio" is an MP3
// frame header followed by the input text.
import { randomBytes } from "node:crypto";
import { isObject, type VendorReply, type VendorRequest, type VendorRoute } from "../http/vendor";

const MODELS = new Set(["tts-1", "tts-1-hd", "gpt-4o-mini-tts"]);
const VOICES = new Set(["alloy", "ash", "ballad", "coral", "echo", "fable", "nova", "onyx", "sage", "shimmer", "verse"]);
const FORMATS: Readonly<Record<string, string>> = {
  mp3: "audio/mpeg",
  opus: "audio/ogg",
  aac: "audio/aac",
  flac: "audio/flac",
  wav: "audio/wav",
};

function error(status: number, message: string, param: string | null): VendorReply {
  return { status, body: { error: { message, type: "invalid_request_error", param, code: null } } };
}

function speak(req: VendorRequest): VendorReply {
  const b = req.body;
  if (!isObject(b)) return error(400, "We could not parse the JSON body of your request.", null);
  if (typeof b.model !== "string" || !MODELS.has(b.model)) return error(400, `Invalid model '${String(b.model)}'.`, "model");
  if (typeof b.input !== "string" || b.input.length === 0) return error(400, "Missing required parameter: 'input'.", "input");
  if (b.input.length > 4096) return error(400, "'input' is longer than 4096 characters.", "input");
  if (typeof b.voice !== "string" || !VOICES.has(b.voice)) return error(400, `Invalid value: '${String(b.voice)}'.`, "voice");
  const format = b.response_format ?? "mp3";
  const contentType = typeof format === "string" ? FORMATS[format] : undefined;
  if (!contentType) return error(400, `Invalid value: '${String(format)}'.`, "response_format");
  return {
    status: 200,
    headers: { "x-request-id": `req_${randomBytes(12).toString("hex")}` },
    contentType,
    body: Buffer.concat([Buffer.from([0xff, 0xfb, 0x90, 0x64]), Buffer.from(b.input, "utf8")]),
  };
}

export const speechRoutes: VendorRoute[] = [
  { method: "POST", path: "/audio/speech", handle: speak },
  { method: "POST", path: "/v1/audio/speech", handle: speak },
];
