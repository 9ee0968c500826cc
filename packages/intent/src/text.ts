// How task words and catalog text become search terms: one tokenizer and one term pipeline for both
// sides, so "Sending e-mails" and "send email" meet as the same stems. Stop words are the glue of a
// request ("can you please get me the ...") that would otherwise match every capability.
import stem from "wink-porter2-stemmer";
import { isPlaceWord } from "./places";

/** Glue words of English requests; dropped before indexing and searching. */
const STOP_WORDS = new Set(
  (
    "a an and are as at be been but by can could do does for from get give go got had has have hey hi i " +
    "if in into is it its it's just let me my of on or our please should so some than that the their them " +
    "then there these this those to up us using use via want we will " +
    "with would you your i'd i'm need needs show tell also any all one new out over about " +
    "quick quickly right mine ours yours something thing things kind sort bit lot lots okay ok thanks thank route routes"
  ).split(" "),
);

/** A camelCase name (a contract field: targetLanguage), not a brand written in capitals (PowerPoint, TikTok). */
const CAMEL_CASE = /\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+\b/g;

/** Splits text into lowercase words: camelCase field names and dotted keys come apart, "e-mail" stays one word. */
export function tokenize(text: string): string[] {
  return text
    .replace(CAMEL_CASE, (name) => name.replace(/([a-z0-9])([A-Z])/g, "$1 $2"))
    .toLowerCase()
    .replace(/\b(e)-(mail|mails)\b/g, "$1$2")
    .split(/[^\p{L}\p{N}']+/u)
    .map((word) => word.replace(/^'+|'+$/g, "").replace(/'s$/, ""))
    .filter((word) => word.length > 0);
}

/** Stems already computed (a word's stem never changes); emptied when it grows past its bound. */
const stems = new Map<string, string>();
const STEMS_MAX = 100_000;

/** A word's search term: its stem, or null for a stop word or a bare number. */
export function termOf(word: string): string | null {
  if (STOP_WORDS.has(word) || /^\d+$/.test(word)) return null;
  let term = stems.get(word);
  if (term === undefined) {
    if (stems.size >= STEMS_MAX) stems.clear();
    term = stem(word);
    stems.set(word, term);
  }
  return term;
}

/** The distinct search terms of a text, in order of first appearance. */
export function termsOf(text: string): string[] {
  const terms = new Set<string>();
  for (const word of tokenize(text)) {
    const term = termOf(word);
    if (term !== null) terms.add(term);
  }
  return [...terms];
}

/**
 * The word pairs of a text: each search term with the next one (stop words skipped, so "text to image"
 * gives "text imag"), as "a b" keys. A task and a catalog phrase that share a pair say the same thing in
 * the same order, which shared single words do not.
 */
export function termPairsOf(text: string): string[] {
  const pairs: string[] = [];
  let previous: string | null = null;
  for (const word of tokenize(text)) {
    const term = termOf(word);
    if (term === null) continue;
    if (previous !== null && previous !== term) pairs.push(`${previous} ${term}`);
    previous = term;
  }
  return pairs;
}

/**
 * Verbs of asking and acting that many tasks share, in or out of the catalog ("buy", "order", "make"):
 * they say little about which capability is meant, so they weigh less when a task's coverage is measured.
 */
const GENERIC_WORDS = new Set(
  (
    "buy purchase order make create add set start run do turn put take check list search look find see get grab pull " +
    "send give tell ask help open close cancel change update remove delete book schedule track count log post " +
    "write read play call pay move keep new now good best top latest current today week month year day time"
  )
    .split(" ")
    .map((w) => termOf(w) ?? w),
);

export function isGenericTerm(term: string): boolean {
  return GENERIC_WORDS.has(term);
}

/**
 * Terms of the task's names: capitalized words past the first (Tokyo, SFO, TikTok). A name is what a task is
 * about, rarely what it asks to do, so it weighs less when coverage is measured; a product the catalog does
 * not know is the exception (productNameTermsOf).
 */
export function nameTermsOf(text: string): Set<string> {
  const names = new Set<string>();
  const words = text.split(/\s+/);
  words.forEach((raw, i) => {
    const word = raw.replace(/^[^\p{L}]+|[^\p{L}]+$/gu, "");
    if (i === 0 || !/^\p{Lu}/u.test(word)) return;
    for (const w of tokenize(word)) {
      const term = termOf(w);
      if (term) names.add(term);
    }
  });
  return names;
}

/** A code in capitals (SFO, NVDA, UTC, EUR): an airport, a ticker, a zone or a currency, named by its code. */
const CODE = /^[\p{Lu}\d]{2,5}$/u;

/** The most unknown capitalized words a task is read for (see productNameTermsOf). */
const MAX_PRODUCT_NAMES = 8;

/**
 * Terms of the task's product names: capitalized words past the first that the catalog does not know and
 * that are neither a place (Tokyo, Brazil) nor a code (SFO, NVDA). A task that names a product the catalog
 * has no word for ("open a ticket in Zendesk", "sign this with DocuSign") most likely needs that product.
 * A person's or a company's name is read the same way: only a place and a code are told apart.
 */
export function productNameTermsOf(text: string, known: ReadonlySet<string>): Set<string> {
  const products = new Set<string>();
  const words = text.split(/\s+/);
  words.forEach((raw, i) => {
    const word = raw.replace(/^[^\p{L}\d]+|[^\p{L}\d]+$/gu, "");
    // Past a few, more products change nothing (the task is far from any capability) but each costs a
    // place lookup: the cap keeps a task of hundreds of made-up names from costing milliseconds.
    if (products.size >= MAX_PRODUCT_NAMES) return;
    if (i === 0 || !/^\p{Lu}/u.test(word) || CODE.test(word)) return;
    for (const w of tokenize(word)) {
      const term = termOf(w);
      if (term !== null && !known.has(term) && !isPlaceWord(w)) products.add(term);
    }
  });
  return products;
}

/**
 * Terms of a task's payload: what follows "instruction: " ("text to image: a red fox in the snow",
 * "translate to French: good morning"). The words before the colon say what to do; the payload is what
 * to do it with, so, like a name, it weighs less when coverage is measured. Only when the instruction
 * has words of its own.
 */
export function payloadTermsOf(text: string): Set<string> {
  const colon = text.search(/:\s/);
  if (colon <= 0 || termsOf(text.slice(0, colon)).length === 0) return new Set();
  return new Set(termsOf(text.slice(colon + 1)));
}

/**
 * Values a task hands to a contract field (addresses, hashes, dates, handles): kept out of the search, or
 * replaced by the word for what they are where that word tells capabilities apart (a company's domain, a
 * stock's $TICKER).
 */
const FIELD_VALUES: ReadonlyArray<[RegExp, string]> = [
  [/[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g, " "],
  [/\b0x[0-9a-fA-F]{6,}\b/g, " "],
  [/\b\d{4}-\d{2}-\d{2}(?:T[\d:.]+Z?)?\b/g, " "],
  [/(?:^|\s)@[A-Za-z0-9_.]+/g, " "],
  [/\b(?:[a-z0-9-]+\.)+(?:com|io|org|net|app|ai|co|so|dev)\b/gi, " domain "],
  [/(?:^|\s)\$[A-Z]{1,5}\b/g, " ticker "],
];

/** A link, and the file type at the end of its path (".pptx", ".png"): what the link is says what the task wants done with it. */
const LINK = /\bhttps?:\/\/\S+/g;
const FILE_TYPE = /^https?:\/\/[^/\s]+\/(?:[^?#\s]*\/)?[^/?#\s]*\.([A-Za-z][A-Za-z0-9]{1,4})(?:[?#]\S*)?$/;

function fileTypeOf(link: string): string {
  return FILE_TYPE.exec(link.replace(/[.,;:!?)]+$/, ""))?.[1] ?? "";
}

export function withoutFieldValues(text: string): string {
  const linksAsFileTypes = text.replace(LINK, (link) => ` ${fileTypeOf(link)} `);
  return FIELD_VALUES.reduce((t, [re, word]) => t.replace(re, word), linksAsFileTypes);
}

/**
 * Fixes swapped letters ("tiem", "serach", "flgihts"), the typo an edit distance counts twice: a word
 * whose term the catalog does not know is replaced by the first adjacent transposition whose term it
 * does. Other typos are left to the search's fuzzy matching (one edit).
 */
export function withSwapsFixed(text: string, known: ReadonlySet<string>): string {
  return tokenize(text)
    .map((word) => {
      const term = termOf(word);
      if (term === null || known.has(term) || word.length < 4) return word;
      for (let i = 0; i + 1 < word.length; i++) {
        const swapped = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
        const swappedTerm = termOf(swapped);
        if (swappedTerm !== null && known.has(swappedTerm)) return swapped;
      }
      return word;
    })
    .join(" ");
}
