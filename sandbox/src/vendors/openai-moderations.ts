// OpenAI moderation stand-in route: POST /moderations (and /v1/moderations) {model?, input: string |
// string[] | [{type: "text", text} | {type: "image_url", image_url: {url}}]} → {id, model, results: [{flagged,
// categories, category_scores, category_applied_input_types}]}; errors {error: {...}}. Scores come from
// a small word list per category, so a test can produce a flag with a known word.
import { randomBytes } from "node:crypto";
import { isObject, type VendorReply, type VendorRequest, type VendorRoute } from "../http/vendor";

const MODELS = new Set(["omni-moderation-latest", "omni-moderation-2024-09-26", "text-moderation-latest", "text-moderation-stable"]);

const CATEGORIES: Readonly<Record<string, readonly string[]>> = {
  harassment: ["idiot", "loser"],
  "harassment/threatening": ["hunt you down"],
  hate: ["vermin"],
  "hate/threatening": [],
  illicit: ["counterfeit"],
  "illicit/violent": [],
  "self-harm": ["hurt myself"],
  "self-harm/intent": ["want to hurt myself"],
  "self-harm/instructions": [],
  sexual: ["explicit"],
  "sexual/minors": [],
  violence: ["kill", "attack"],
  "violence/graphic": ["gore"],
};

function error(status: number, message: string, param: string | null): VendorReply {
  return { status, body: { error: { message, type: "invalid_request_error", param, code: null } } };
}

/** The texts and image URLs of a moderation input, or an error message. */
function partsOf(input: unknown): { texts: string[]; images: string[] } | string {
  if (typeof input === "string") return { texts: [input], images: [] };
  if (!Array.isArray(input) || input.length === 0) return "'input' must be a string or a non-empty array";
  const texts: string[] = [];
  const images: string[] = [];
  for (const part of input) {
    if (typeof part === "string") texts.push(part);
    else if (isObject(part) && part.type === "text" && typeof part.text === "string") texts.push(part.text);
    else if (isObject(part) && part.type === "image_url" && isObject(part.image_url) && typeof part.image_url.url === "string")
      images.push(part.image_url.url);
    else return "each 'input' item must be {type: 'text', text} or {type: 'image_url', image_url: {url}}";
  }
  return { texts, images };
}

function moderate(req: VendorRequest): VendorReply {
  const b = req.body;
  if (!isObject(b)) return error(400, "We could not parse the JSON body of your request.", null);
  const model = b.model === undefined ? "omni-moderation-latest" : b.model;
  if (typeof model !== "string" || !MODELS.has(model)) return error(400, `Invalid model: ${String(model)}.`, "model");
  const parts = partsOf(b.input);
  if (typeof parts === "string") return error(400, parts, "input");
  if (parts.images.length > 1) return error(400, "At most one image can be given per request.", "input");
  const text = parts.texts.join("\n").toLowerCase();
  const scores = Object.fromEntries(
    Object.entries(CATEGORIES).map(([c, words]) => [c, words.some((w) => text.includes(w)) ? 0.91 : 0.0004]),
  );
  return {
    status: 200,
    body: {
      id: `modr-${randomBytes(8).toString("hex")}`,
      model: model.startsWith("omni") ? "omni-moderation-2024-09-26" : model,
      results: [
        {
          flagged: Object.values(scores).some((s) => s > 0.5),
          categories: Object.fromEntries(Object.entries(scores).map(([c, s]) => [c, s > 0.5])),
          category_scores: scores,
          category_applied_input_types: Object.fromEntries(
            Object.keys(CATEGORIES).map((c) => [c, parts.images.length ? ["text", "image"] : ["text"]]),
          ),
        },
      ],
    },
  };
}

export const moderationRoutes: VendorRoute[] = [
  { method: "POST", path: "/moderations", handle: moderate },
  { method: "POST", path: "/v1/moderations", handle: moderate },
];
