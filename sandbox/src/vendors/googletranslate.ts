// Google Cloud Translation v2 stand-in (API key in `X-goog-api-key` or `key=` on its API, and its paid hosts):
// POST /language/translate/v2 {q, target, source?, format?} → {data: {translations: [{translatedText,
// detectedSourceLanguage?}]}}; POST /language/translate/v2/detect {q} → {data: {detections: [[{language,
// isReliable, confidence}]]}}. Errors {error: {code, message, errors: [{message, domain, reason}], status}};
// like Google, a bad key is a 400 whose ErrorInfo reason is API_KEY_INVALID. Detection reads a few telltale
// letters and words; translation uses a small glossary, word by word.
import {
  header,
  isObject,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
  type SandboxVendor,
} from "../http/vendor";

const LANGUAGES = new Set(["de", "en", "es", "fr", "it", "ja", "nl", "pt", "ru", "zh", "zh-CN", "zh-TW", "pt-BR", "pt-PT"]);
const MAX_SEGMENTS = 128;

/** Google's canonical status name per HTTP status. */
const STATUS_NAMES: Readonly<Record<number, string>> = {
  400: "INVALID_ARGUMENT",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  429: "RESOURCE_EXHAUSTED",
  500: "INTERNAL",
  503: "UNAVAILABLE",
};

function error(status: number, message: string, reason = status === 400 ? "invalid" : "backendError", details?: unknown[]): VendorReply {
  return {
    status,
    body: {
      error: {
        code: status,
        message,
        errors: [{ message, domain: "global", reason }],
        status: STATUS_NAMES[status] ?? (status >= 500 ? "INTERNAL" : "FAILED_PRECONDITION"),
        ...(details ? { details } : {}),
      },
    },
  };
}

/** English word → translation per target language. */
const GLOSSARY: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  de: { where: "wo", is: "ist", the: "der", train: "Zug", station: "Bahnhof", hello: "hallo", world: "Welt", thanks: "danke" },
  fr: { where: "où", is: "est", the: "la", train: "train", station: "gare", hello: "bonjour", world: "monde", thanks: "merci" },
  es: { where: "dónde", is: "está", the: "la", train: "tren", station: "estación", hello: "hola", world: "mundo", thanks: "gracias" },
};
/** Whole phrases the glossary renders better than word by word. */
const PHRASES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  de: { "where is the train station?": "Wo ist der Bahnhof?" },
  fr: { "where is the train station?": "Où est la gare ?" },
  es: { "where is the train station?": "¿Dónde está la estación de tren?" },
};

/** The language of a text and how sure the guess is. */
function detect(text: string): { language: string; confidence: number } {
  if (/[\u3040-\u30ff]/.test(text)) return { language: "ja", confidence: 1 };
  if (/[\u4e00-\u9fff]/.test(text)) return { language: "zh-CN", confidence: 0.98 };
  if (/[\u0400-\u04ff]/.test(text)) return { language: "ru", confidence: 0.99 };
  const words = text.toLowerCase().split(/[^\p{L}]+/u);
  const score = (list: string[]) => words.filter((w) => list.includes(w)).length;
  const scores: [string, number][] = [
    ["de", score(["der", "die", "das", "und", "ist", "wo", "nicht", "ich"]) + (/[äöüß]/i.test(text) ? 2 : 0)],
    ["fr", score(["le", "la", "les", "est", "et", "où", "je", "une"]) + (/[çàèù]/i.test(text) ? 2 : 0)],
    ["es", score(["el", "la", "los", "está", "dónde", "y", "es", "una"]) + (/[ñ¿¡]/i.test(text) ? 2 : 0)],
    ["en", score(["the", "is", "and", "where", "of", "to", "a", "i"])],
  ];
  const [best, second] = [...scores].sort((a, b) => b[1] - a[1]);
  if (!best || best[1] === 0) return { language: "en", confidence: 0.31 };
  return { language: best[0], confidence: Math.min(1, 0.5 + 0.1 * (best[1] - (second?.[1] ?? 0))) };
}

function translate(text: string, target: string): string {
  const base = target.split("-")[0] as string;
  const phrase = PHRASES[base]?.[text.trim().toLowerCase()];
  if (phrase) return phrase;
  const glossary = GLOSSARY[base];
  if (!glossary) return text;
  return text.replace(/\p{L}+/gu, (w) => glossary[w.toLowerCase()] ?? w);
}

/** `q` as a list of strings (Google takes one string or many), or an error reply. */
function segments(body: unknown): string[] | VendorReply {
  const q = isObject(body) ? body.q : undefined;
  const list = Array.isArray(q) ? q : q === undefined ? [] : [q];
  if (list.length === 0) return error(400, "Required Text");
  if (list.some((s) => typeof s !== "string")) return error(400, "Invalid Value");
  if (list.length > MAX_SEGMENTS) return error(400, "Too many text segments");
  return list as string[];
}

export function googletranslateVendor({ apiKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "googletranslate",
    price: { amountAtomic: priceAtomic, description: "Google Cloud Translation call" },
    authenticate: (req) => {
      const key = header(req, "x-goog-api-key") ?? req.query.key;
      if (!key) return error(403, "The request is missing a valid API key.", "forbidden");
      if (key === apiKey) return undefined;
      return error(400, "API key not valid. Please pass a valid API key.", "badRequest", [
        { "@type": "type.googleapis.com/google.rpc.ErrorInfo", reason: "API_KEY_INVALID", domain: "googleapis.com" },
      ]);
    },
    errorReply: (status, message) => error(status, message),
    routes: [
      { method: "POST", path: "/language/translate/v2", handle: translateRoute },
      { method: "POST", path: "/language/translate/v2/detect", handle: detectRoute },
    ],
  };
}

function translateRoute(req: VendorRequest): VendorReply {
  const q = segments(req.body);
  if (!Array.isArray(q)) return q;
  const b = req.body as Record<string, unknown>;
  if (typeof b.target !== "string") return error(400, "Missing required field target");
  if (!LANGUAGES.has(b.target)) return error(400, "Invalid Value");
  if (b.source !== undefined && (typeof b.source !== "string" || !LANGUAGES.has(b.source))) return error(400, "Invalid Value");
  if (b.format !== undefined && b.format !== "text" && b.format !== "html") return error(400, "Invalid Value");
  const html = b.format !== "text";
  const translations = q.map((text) => {
    const out = translate(text, b.target as string);
    return {
      // With the default html format Google escapes the text it returns.
      translatedText: html ? out.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;") : out,
      ...(b.source === undefined ? { detectedSourceLanguage: detect(text).language } : {}),
    };
  });
  return { status: 200, body: { data: { translations } } };
}

function detectRoute(req: VendorRequest): VendorReply {
  const q = segments(req.body);
  if (!Array.isArray(q)) return q;
  return { status: 200, body: { data: { detections: q.map((text) => [{ ...detect(text), isReliable: false }]) } } };
}

export const googletranslateSandbox = {
  key: "googletranslate",
  apiKey: "googletranslate-sandbox-key",
  priceAtomic: "10000",
  create: googletranslateVendor,
} as const satisfies SandboxVendor;
