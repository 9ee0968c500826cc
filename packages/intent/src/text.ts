// How task words and catalog text become search terms: one tokenizer and one term pipeline for both
// sides, so "Sending e-mails" and "send email" meet as the same stems. Stop words are the glue of a
// request ("can you please get me the ...") that would otherwise match every capability.
import stem from "wink-porter2-stemmer";

/** Glue words of English requests; dropped before indexing and searching. */
const STOP_WORDS = new Set(
  (
    "a an and are as at be been but by can could do does for from get give go got had has have hey hi how i " +
    "if in into is it its it's just let me my of on or our please should so some than that the their them " +
    "then there these this those to up us using use via want we what when where which who whose why will " +
    "with would you your i'd i'm need needs show tell find look also any all one new now out over about " +
    "quick quickly right mine ours yours something thing things kind sort bit lot lots okay ok thanks thank route routes"
  ).split(" "),
);

/** Splits text into lowercase words: camelCase and dotted keys come apart, "e-mail" stays one word. */
export function tokenize(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .toLowerCase()
    .replace(/\b(e)-(mail|mails)\b/g, "$1$2")
    .split(/[^\p{L}\p{N}']+/u)
    .map((word) => word.replace(/^'+|'+$/g, "").replace(/'s$/, ""))
    .filter((word) => word.length > 0);
}

/** A word's search term: its stem, or null for a stop word or a bare number. */
export function termOf(word: string): string | null {
  if (STOP_WORDS.has(word) || /^\d+$/.test(word)) return null;
  return stem(word);
}

/** The distinct search terms of a text, in order of first appearance. */
export function termsOf(text: string): string[] {
  const terms: string[] = [];
  for (const word of tokenize(text)) {
    const term = termOf(word);
    if (term !== null && !terms.includes(term)) terms.push(term);
  }
  return terms;
}
