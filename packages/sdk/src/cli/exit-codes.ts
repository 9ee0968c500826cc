// The CLI's exit codes: what kind of failure, so a script can branch without parsing messages.
import {
  AuthenticationError,
  InsufficientCreditsError,
  InvalidRequestError,
  NetworkError,
  PermissionError,
  RateLimitError,
  ServerError,
} from "../errors";

export const EXIT = {
  /** Done. */
  OK: 0,
  /** A failure the CLI did not expect (a bug, or an answer it could not read). */
  UNEXPECTED: 1,
  /** The input is wrong: unknown command or option, bad JSON, or the API refused the request (400, 404, 409, ...). */
  INPUT: 2,
  /** No API key, or the API refused it (401, 403). */
  AUTH: 3,
  /** The wallet holds too few credits (402). */
  MONEY: 4,
  /** The API, a provider or the network failed, or the key is over its rate (5xx, 429, no answer): try again later. */
  SERVER: 5,
  /** The execute was not confirmed at the prompt; nothing was done. */
  DECLINED: 6,
} as const;

/** A failure of the CLI's own making (usage, bad input file), with the exit code it means. */
export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
    readonly hint?: string,
  ) {
    super(message);
  }
}

export function exitCodeOf(err: unknown): number {
  if (err instanceof CliError) return err.exitCode;
  if (err instanceof AuthenticationError || err instanceof PermissionError) return EXIT.AUTH;
  if (err instanceof InsufficientCreditsError) return EXIT.MONEY;
  if (err instanceof InvalidRequestError) return EXIT.INPUT;
  if (err instanceof ServerError || err instanceof NetworkError || err instanceof RateLimitError) return EXIT.SERVER;
  return EXIT.UNEXPECTED;
}
