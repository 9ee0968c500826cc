// Input in a vendor URL's path, as adapters put it there: exactly one plain path segment (the rule is
// the domain's pathSegmentProblem), encoded; anything else is the caller's invalid input.
import { pathSegmentProblem } from "../domain/path-segment";
import { inputRefusal } from "./input";

/** `value` as one encoded path segment of a vendor URL; an invalid_input ProviderError naming `field` otherwise. */
export function pathSegment(providerKey: string, field: string, value: string): string {
  const problem = pathSegmentProblem(value);
  if (problem) throw inputRefusal(providerKey, `input field "${field}" ${problem}`, field);
  return encodeURIComponent(value);
}
