// Reading capability inputs inside adapters. The executor validates inputs against the contract
// first; these guards keep adapters total (a wrong type is an invalid_input error, never a crash).
import { ProviderError, type CapabilityInput } from "../domain/provider-port";

/**
 * The error of an input the vendor cannot take (the caller's to fix, so no fallback is tried): with
 * `field`, the 400 names that field and its hint says to fix it.
 */
export function inputRefusal(providerKey: string, message: string, field?: string, nextActions?: readonly string[]): ProviderError {
  return new ProviderError("invalid_input", providerKey, message, {
    blame: "input",
    ...(field !== undefined ? { field } : {}),
    ...(nextActions ? { nextActions } : {}),
  });
}

/** An IATA airport or city code, in either case. */
const IATA_CODE = /^[A-Za-z]{3}$/;

export class InputReader {
  constructor(
    private readonly providerKey: string,
    private readonly input: CapabilityInput,
  ) {}

  private fail(field: string, expected: string): never {
    // The field travels with the error too, so the answer's hint says which field to fix.
    throw inputRefusal(this.providerKey, `input field "${field}" must be ${expected}`, field);
  }

  /** A non-empty string field; throws when `required` and absent. */
  string(field: string, required: true): string;
  string(field: string, required?: false): string | undefined;
  string(field: string, required = false): string | undefined {
    const value = this.input[field];
    if (value === undefined || value === null) return required ? this.fail(field, "a non-empty string") : undefined;
    if (typeof value !== "string" || value.trim().length === 0) return this.fail(field, "a non-empty string");
    return value;
  }

  /** A required non-empty string of at most `maxChars` characters (a per-call limit, e.g. the length a price is for). */
  limitedString(field: string, maxChars: number): string {
    const value = this.string(field, true);
    if (value.length > maxChars) throw inputRefusal(this.providerKey, `${field} is limited to ${maxChars} characters per call`, field);
    return value;
  }

  /** A string or an array of strings, as an array ([] when absent and optional). */
  strings(field: string, required = false): string[] {
    const value = this.input[field];
    if (value === undefined || value === null) return required ? this.fail(field, "a string or a non-empty array of strings") : [];
    const list = Array.isArray(value) ? value : [value];
    if (list.length === 0 && required) this.fail(field, "a non-empty array of strings");
    if (list.some((v) => typeof v !== "string" || v.trim().length === 0)) this.fail(field, "a string or an array of non-empty strings");
    return list as string[];
  }

  /** An optional finite number (integer when asked). */
  number(field: string, opts: { integer?: boolean; min?: number; max?: number } = {}): number | undefined {
    const value = this.input[field];
    if (value === undefined || value === null) return undefined;
    const ok =
      typeof value === "number" &&
      Number.isFinite(value) &&
      (!opts.integer || Number.isInteger(value)) &&
      (opts.min === undefined || value >= opts.min) &&
      (opts.max === undefined || value <= opts.max);
    if (!ok)
      this.fail(
        field,
        `a${opts.integer ? "n integer" : " number"}${opts.min !== undefined ? ` >= ${opts.min}` : ""}${opts.max !== undefined ? ` <= ${opts.max}` : ""}`,
      );
    return value as number;
  }

  /** An optional boolean, false when absent. */
  boolean(field: string): boolean {
    const value = this.input[field];
    if (value !== undefined && value !== null && typeof value !== "boolean")
      throw inputRefusal(this.providerKey, `input field "${field}" must be a boolean`, field);
    return value === true;
  }

  /** An optional field of any JSON type, passed through. */
  raw(field: string): unknown {
    return this.input[field];
  }

  /** A required 3-letter IATA airport or city code, upper-cased. */
  iataCode(field: string): string {
    const code = this.string(field, true).trim();
    if (!IATA_CODE.test(code)) throw inputRefusal(this.providerKey, `\`${field}\` must be a 3-letter IATA code`, field);
    return code.toUpperCase();
  }
}
