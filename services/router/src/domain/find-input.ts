// Reads a FindCapabilities request: the words (1..2000 characters once trimmed). Problems are
// INVALID_INPUT naming the field.
import type { FindCapabilitiesRequest } from "@agentic/proto/router/v1";
import { InputError } from "@agentic/ranking/domain";

export const FIND_WORDS_MAX_LENGTH = 2_000;

export function parseFindWords(req: Pick<FindCapabilitiesRequest, "words">): string {
  const words = (req.words ?? "").trim();
  if (words === "")
    throw new InputError("words", "words are required and must not be empty", 'Send words: a word or more to search for, e.g. "email".');
  if (words.length > FIND_WORDS_MAX_LENGTH) {
    throw new InputError(
      "words",
      `words must be at most ${FIND_WORDS_MAX_LENGTH} characters`,
      `Send at most ${FIND_WORDS_MAX_LENGTH} characters of words.`,
    );
  }
  return words;
}
