// DeepL stand-in: POST /v2/translate with `Authorization: DeepL-Auth-Key <key>` and JSON
// {text: [...], target_lang, source_lang?, formality?} → {translations: [{detected_source_language, text}]};
// errors {message} (403 auth, 400 bad parameters). Translates word by word from a small glossary.
import {
  authToken,
  isObject,
  type VendorDefinition,
  type VendorOptions,
  type VendorReply,
  type VendorRequest,
  type SandboxVendor,
} from "../http/vendor";

const TARGETS = new Set([
  "AR",
  "BG",
  "CS",
  "DA",
  "DE",
  "EL",
  "EN",
  "EN-GB",
  "EN-US",
  "ES",
  "ET",
  "FI",
  "FR",
  "HU",
  "ID",
  "IT",
  "JA",
  "KO",
  "LT",
  "LV",
  "NB",
  "NL",
  "PL",
  "PT",
  "PT-BR",
  "PT-PT",
  "RO",
  "RU",
  "SK",
  "SL",
  "SV",
  "TR",
  "UK",
  "ZH",
  "ZH-HANS",
  "ZH-HANT",
]);
const SOURCES = new Set([...TARGETS].map((t) => t.split("-")[0] as string));
const FORMALITIES = new Set(["default", "more", "less", "prefer_more", "prefer_less"]);
const MAX_TEXTS = 50;

/** English word → translation per target language (base code). */
const GLOSSARY: Record<string, Record<string, string>> = {
  DE: {
    hello: "hallo",
    world: "welt",
    good: "gut",
    morning: "morgen",
    thanks: "danke",
    yes: "ja",
    no: "nein",
    please: "bitte",
    price: "preis",
    email: "e-mail",
    the: "die",
    is: "ist",
  },
  FR: {
    hello: "bonjour",
    world: "monde",
    good: "bon",
    morning: "matin",
    thanks: "merci",
    yes: "oui",
    no: "non",
    please: "s'il vous plaît",
    price: "prix",
    email: "e-mail",
    the: "le",
    is: "est",
  },
  ES: {
    hello: "hola",
    world: "mundo",
    good: "bueno",
    morning: "mañana",
    thanks: "gracias",
    yes: "sí",
    no: "no",
    please: "por favor",
    price: "precio",
    email: "correo",
    the: "el",
    is: "es",
  },
  IT: {
    hello: "ciao",
    world: "mondo",
    good: "buono",
    morning: "mattina",
    thanks: "grazie",
    yes: "sì",
    no: "no",
    please: "per favore",
    price: "prezzo",
    email: "email",
    the: "il",
    is: "è",
  },
  NL: {
    hello: "hallo",
    world: "wereld",
    good: "goed",
    morning: "ochtend",
    thanks: "bedankt",
    yes: "ja",
    no: "nee",
    please: "alsjeblieft",
    price: "prijs",
    email: "e-mail",
    the: "de",
    is: "is",
  },
};

function error(status: number, message: string): VendorReply {
  return { status, body: { message } };
}

export function deeplVendor({ apiKey: authKey, priceAtomic }: VendorOptions): VendorDefinition {
  return {
    key: "deepl",
    price: { amountAtomic: priceAtomic, description: "DeepL translation" },
    errorReply: error,
    authenticate(req) {
      if (authToken(req, "DeepL-Auth-Key") !== authKey) return error(403, "Authorization failure, check auth_key");
      return undefined;
    },
    routes: [{ method: "POST", path: "/v2/translate", handle: translate }],
  };
}

const ENGLISH_WORDS = new Set(Object.values(GLOSSARY).flatMap((dict) => Object.keys(dict)));

/** The language a text is written in, judged by glossary hits (English when nothing matches). */
function detect(text: string): string {
  const words = text
    .toLowerCase()
    .split(/[^\p{L}'-]+/u)
    .filter((w) => w && !ENGLISH_WORDS.has(w));
  let best = "EN";
  let bestHits = 0;
  for (const [lang, dict] of Object.entries(GLOSSARY)) {
    const own = new Set(Object.values(dict));
    const hits = words.filter((w) => own.has(w)).length;
    if (hits > bestHits) [best, bestHits] = [lang, hits];
  }
  return best;
}

function translateText(text: string, target: string): string {
  const dict = GLOSSARY[target.split("-")[0] as string];
  if (!dict) return text;
  return text.replace(/\p{L}+/gu, (word) => {
    const translated = dict[word.toLowerCase()];
    if (!translated) return word;
    return word[0] === word[0]?.toUpperCase() ? translated[0]?.toUpperCase() + translated.slice(1) : translated;
  });
}

function translate(req: VendorRequest): VendorReply {
  const b = req.body;
  if (!isObject(b)) return error(400, "Bad request. Reason: body must be a JSON object");
  if (!Array.isArray(b.text) || b.text.length === 0 || b.text.some((t) => typeof t !== "string"))
    return error(400, "Parameter 'text' not specified.");
  if (b.text.length > MAX_TEXTS) return error(400, `Too many texts, at most ${MAX_TEXTS} are allowed.`);
  if (typeof b.target_lang !== "string" || !TARGETS.has(b.target_lang.toUpperCase()))
    return error(400, "Value for 'target_lang' not supported.");
  if (b.source_lang !== undefined && (typeof b.source_lang !== "string" || !SOURCES.has(b.source_lang.toUpperCase())))
    return error(400, "Value for 'source_lang' not supported.");
  if (b.formality !== undefined && (typeof b.formality !== "string" || !FORMALITIES.has(b.formality)))
    return error(400, "Value for 'formality' not supported.");
  const target = b.target_lang.toUpperCase();
  const source = typeof b.source_lang === "string" ? b.source_lang.toUpperCase() : undefined;
  return {
    status: 200,
    body: {
      translations: (b.text as string[]).map((t) => ({
        detected_source_language: source ?? detect(t),
        text: (source ?? detect(t)) === "EN" ? translateText(t, target) : t,
      })),
    },
  };
}

export const deeplSandbox = {
  key: "deepl",
  apiKey: "sandbox-deepl-key:fx",
  priceAtomic: "25000",
  create: deeplVendor,
} as const satisfies SandboxVendor;
