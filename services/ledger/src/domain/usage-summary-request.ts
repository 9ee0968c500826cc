// SummarizeUsage's range: both ends required, from before to, at most MAX_SUMMARY_DAYS apart.
import { invalidField } from "./errors";
import type { TimeRange } from "./types";
import { MAX_SUMMARY_DAYS } from "./usage-summary";
import { optionalTimeRange } from "./validate";

export function requireSummaryRange(from: Date | undefined, to: Date | undefined): TimeRange {
  const range = optionalTimeRange(from, to);
  if (!range.from) throw invalidField("from", "from is required.", "Send from, the start of the range.");
  if (!range.to) throw invalidField("to", "to is required.", "Send to, the end of the range (exclusive).");
  if (range.to.getTime() - range.from.getTime() > MAX_SUMMARY_DAYS * 86_400_000)
    throw invalidField("to", `The range is longer than ${MAX_SUMMARY_DAYS} days.`, `Ask for at most ${MAX_SUMMARY_DAYS} days at a time.`);
  return { from: range.from, to: range.to };
}
