// What a task says about how to run it, read from its words: goals ("cheapest" → cost), a price cap
// ("under 20 credits", "less than 5 cents"), a provider pin ("via Postmark"), and the values it
// gives for the matched capability's own contract fields (an address for `to`, a ticker for
// `symbol`, a time zone). Rules are literal patterns, so the same words always give the same answer.
import type { ConstraintField, IntentDocument } from "./documents";

/** The recommend goals, in the vocabulary of optimizationPreferences. */
export type Goal = "cost" | "speed" | "reliability" | "quality";

export interface TaskConstraints {
  /** Goals in the order the task names them. */
  optimizationPreferences: Goal[];
  /** The most the task will pay for one run, in credits (1000 credits = 1 USD). */
  maxPriceCredits?: number;
  /** The provider key the task asks for. */
  provider?: string;
  /** Execute fields of the top match the task's words fill. */
  fields: Record<string, string>;
}

/** 1000 credits = 1 USD. */
export const CREDITS_PER_USD = 1000;

const GOAL_PATTERNS: ReadonlyArray<[Goal, RegExp]> = [
  [
    "cost",
    /\b(cheapest|cheaper|cheap|inexpensive|least expensive|lowest[- ](?:price|cost)|low[- ]cost|most affordable|affordable|on a budget)\b/i,
  ],
  ["speed", /\b(fastest|faster|quickest|lowest[- ]latency|low[- ]latency|as fast as possible|asap|speediest)\b/i],
  ["reliability", /\b(most reliable|reliable|reliably|dependable|most dependable|highest success rate)\b/i],
  ["quality", /\b(best[- ]quality|highest[- ]quality|high[- ]quality|top[- ]quality|most accurate|best results?)\b/i],
];

/** "under 20 credits", "less than 5 cents", "at most $0.10", "max 2 dollars", "no more than 30c". */
const PRICE_CAP =
  /\b(?:under|below|less than|at most|no more than|not more than|max(?:imum)?(?: of)?|up to|cheaper than|within|budget of|spend(?:ing)? at most)\s+(\$)?(\d+(?:\.\d+)?)\s*(credits?|cents?|¢|c\b|dollars?|usd|bucks?)?/i;
/** "20 credits max", "5 cents or less", "$0.05 tops". */
const PRICE_CAP_AFTER = /(\$)?\b(\d+(?:\.\d+)?)\s*(credits?|cents?|¢|dollars?|usd)?\s+(?:max(?:imum)?|or less|tops|at most)\b/i;

/** Words that introduce a provider: "via Postmark", "through Resend", "using Firecrawl". */
const PROVIDER_LEAD = "(?:via|through|using|use|with|on|over|from|by)";

/** Every constraint pattern, global: what withoutConstraintWords blanks out (compiled once, not per task). */
const CONSTRAINT_WORDS: readonly RegExp[] = [...GOAL_PATTERNS.map(([, re]) => re), PRICE_CAP, PRICE_CAP_AFTER].map(
  (re) => new RegExp(re.source, "gi"),
);

/** The task without the words that state constraints (goals, a price cap), so they neither match nor dilute the search. */
export function withoutConstraintWords(task: string): string {
  return CONSTRAINT_WORDS.reduce((text, re) => text.replace(re, " "), task);
}

export function extractConstraints(
  task: string,
  top: Pick<IntentDocument, "fields"> | undefined,
  providers: ProviderNames,
): TaskConstraints {
  const constraints: TaskConstraints = { optimizationPreferences: goalsOf(task), fields: {} };
  const cap = priceCapOf(task);
  if (cap !== undefined) constraints.maxPriceCredits = cap;
  const provider = providers.named(task);
  if (provider !== undefined) constraints.provider = provider;
  if (top) constraints.fields = fieldsOf(task, top.fields);
  return constraints;
}

function goalsOf(task: string): Goal[] {
  return GOAL_PATTERNS.map(([goal, re]) => [goal, re.exec(task)?.index ?? -1] as const)
    .filter(([, at]) => at >= 0)
    .sort((a, b) => a[1] - b[1])
    .map(([goal]) => goal);
}

function priceCapOf(task: string): number | undefined {
  const before = PRICE_CAP.exec(task);
  const after = before ? null : PRICE_CAP_AFTER.exec(task);
  const m = before ?? after;
  if (!m) return undefined;
  const [, dollarSign, amount, unit] = m;
  const value = Number(amount);
  const u = (unit ?? "").toLowerCase();
  if (dollarSign || /^(dollars?|usd|bucks?)$/.test(u)) return Math.floor(value * CREDITS_PER_USD + 1e-9);
  if (/^(cents?|¢|c)$/.test(u)) return Math.floor((value * CREDITS_PER_USD) / 100 + 1e-9);
  if (/^credits?$/.test(u)) return Math.floor(value);
  // A bare number ("under 20") could be words, pages or anything: not a price.
  return undefined;
}

/** Every provider the catalog names, by key and by its label's spellings, for "via <provider>". */
export class ProviderNames {
  private readonly patterns: ReadonlyArray<{ key: string; re: RegExp }>;

  constructor(providers: ReadonlyArray<{ key: string; label: string }>) {
    const byKey = new Map<string, Set<string>>();
    for (const { key, label } of providers) {
      const names = byKey.get(key) ?? new Set<string>();
      for (const name of spellingsOf(key, label)) names.add(name);
      byKey.set(key, names);
    }
    // Longer names first, so "Google Maps" wins over "Google".
    this.patterns = [...byKey]
      .flatMap(([key, names]) => [...names].map((name) => ({ key, name })))
      .sort((a, b) => b.name.length - a.name.length || a.key.localeCompare(b.key))
      .map(({ key, name }) => ({ key, re: new RegExp(`\\b${PROVIDER_LEAD}\\s+(?:the\\s+)?${escape(name)}(?![\\w])`, "i") }));
  }

  /** The provider key the task pins, if it names one after "via", "through", "using", ... */
  named(task: string): string | undefined {
    let best: { key: string; at: number } | undefined;
    for (const { key, re } of this.patterns) {
      const at = re.exec(task)?.index;
      if (at !== undefined && (best === undefined || at < best.at)) best = { key, at };
    }
    return best?.key;
  }
}

function spellingsOf(key: string, label: string): string[] {
  const short = label
    .replace(/\s+(API|for Developers|Platform|Reader)$/i, "")
    .replace(/\.(io|ai)$/i, "")
    .replace(/^Twilio\s+/i, "");
  return [...new Set([key, label, short].map((s) => s.toLowerCase()))];
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&").replace(/\s+/g, "\\s+");
}

// ---- contract fields the words fill ----

const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
const URL = /\bhttps?:\/\/[^\s<>"')\]]+[^\s<>"')\].,;:!?]/g;
const ISO_DATE = /\b\d{4}-\d{2}-\d{2}\b/g;
const TX_HASH = /\b0x[0-9a-fA-F]{64}\b/;
const EVM_ADDRESS = /\b0x[0-9a-fA-F]{40}\b/;
const HANDLE = /(?:^|[\s(])@([A-Za-z0-9_.]{1,30}[A-Za-z0-9_])/;
const TICKER = /(?:\$([A-Z]{1,5})\b|\b([A-Z]{2,5})\b)/g;
/** Upper-case words that are not tickers. */
const NOT_TICKERS = new Set([
  "ETF",
  "CEO",
  "API",
  "URL",
  "PDF",
  "USA",
  "UK",
  "EU",
  "AI",
  "IPO",
  "NYSE",
  "OK",
  "ASAP",
  "ID",
  "FX",
  "US",
  "TLDR",
  "PNG",
  "HTML",
]);
const BARE_DOMAIN = /(?<![@\w./-])((?:[a-z0-9-]+\.)+[a-z]{2,})(?![\w/@-])/gi;

const TIME_ZONES = new Map(Intl.supportedValuesOf("timeZone").map((z) => [z.toLowerCase(), z]));
TIME_ZONES.set("utc", "UTC");
const CURRENCIES = new Set(Intl.supportedValuesOf("currency"));
const LANGUAGE_NAMES = languageNames();

function fieldsOf(task: string, fields: readonly ConstraintField[]): Record<string, string> {
  const filled: Record<string, string> = {};
  const put = (field: ConstraintField | undefined, value: string | undefined) => {
    if (field && value !== undefined && filled[field.name] === undefined) filled[field.name] = value;
  };
  const stringFields = fields.filter((f) => f.type === "string");
  const withFormat = (format: string) => orderRequiredFirst(stringFields.filter((f) => f.format === format));
  const named = (name: string) => stringFields.find((f) => f.name === name);

  put(withFormat("email")[0], task.match(EMAIL)?.[0]);
  put(withFormat("uri")[0], task.match(URL)?.[0]);
  zip(
    stringFields.filter((f) => f.format === "iana-timezone"),
    timeZonesIn(task),
    put,
  );
  zip(
    stringFields.filter((f) => f.format === "currency-code"),
    currenciesIn(task),
    put,
  );
  zip(
    stringFields.filter((f) => f.format === "date"),
    task.match(ISO_DATE) ?? [],
    put,
  );
  put(
    withFormat("language-tag").find((f) => f.required),
    targetLanguageOf(task),
  );
  put(named("symbol"), tickerOf(task));
  put(named("hash"), TX_HASH.exec(task)?.[0]);
  put(named("address") && !named("address")!.format ? named("address") : undefined, EVM_ADDRESS.exec(task)?.[0]);
  put(named("handle"), HANDLE.exec(task)?.[1]);
  const domainField = stringFields.find((f) => f.name === "domain" && f.required);
  put(domainField, bareDomainOf(task));
  return filled;
}

function orderRequiredFirst(fields: ConstraintField[]): ConstraintField[] {
  return [...fields].sort((a, b) => Number(b.required ?? false) - Number(a.required ?? false));
}

function zip(fields: ConstraintField[], values: string[], put: (f: ConstraintField | undefined, v: string | undefined) => void): void {
  fields.forEach((field, i) => put(field, values[i]));
}

function timeZonesIn(task: string): string[] {
  const found: string[] = [];
  for (const m of task.matchAll(/\b([A-Za-z_]+(?:\/[A-Za-z_+-]+){1,2}|UTC)\b/g)) {
    const zone = TIME_ZONES.get(m[1]!.toLowerCase());
    if (zone && !found.includes(zone)) found.push(zone);
  }
  return found;
}

function currenciesIn(task: string): string[] {
  const found: string[] = [];
  for (const m of task.matchAll(/\b([A-Z]{3})\b/g)) if (CURRENCIES.has(m[1]!) && !found.includes(m[1]!)) found.push(m[1]!);
  return found;
}

function tickerOf(task: string): string | undefined {
  for (const m of task.matchAll(TICKER)) {
    const symbol = m[1] ?? m[2]!;
    if (m[1] || (!NOT_TICKERS.has(symbol) && !CURRENCIES.has(symbol))) return symbol;
  }
  return undefined;
}

function bareDomainOf(task: string): string | undefined {
  const withoutUrlsAndEmails = task.replace(URL, " ").replace(EMAIL, " ");
  for (const m of withoutUrlsAndEmails.matchAll(BARE_DOMAIN)) {
    const domain = m[1]!.toLowerCase();
    if (!/\.(js|ts|py|md|txt|pdf)$/.test(domain)) return domain;
  }
  return undefined;
}

/** "into German", "to French", "in Japanese" → the language's BCP 47 tag. */
function targetLanguageOf(task: string): string | undefined {
  for (const m of task.matchAll(/\b(?:into|to|in)\s+([A-Za-z]+(?:\s+[A-Za-z]+)?)/gi)) {
    const words = m[1]!.toLowerCase().split(/\s+/);
    const tag = LANGUAGE_NAMES.get(words.join(" ")) ?? LANGUAGE_NAMES.get(words[0]!);
    if (tag) return tag;
  }
  return undefined;
}

/** English language names → tags, for the languages with a two-letter code (ISO 639-1). */
function languageNames(): Map<string, string> {
  const names = new Intl.DisplayNames(["en"], { type: "language" });
  const map = new Map<string, string>();
  const letters = "abcdefghijklmnopqrstuvwxyz";
  for (const a of letters)
    for (const b of letters) {
      const tag = a + b;
      let name: string | undefined;
      try {
        name = names.of(tag);
      } catch {
        name = undefined;
      }
      if (name && name !== tag && !map.has(name.toLowerCase())) map.set(name.toLowerCase(), tag);
    }
  map.set("brazilian portuguese", "pt-BR");
  map.set("simplified chinese", "zh-Hans");
  return map;
}
