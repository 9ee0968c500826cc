// When the catalog is too large for two tools per capability: past this many capabilities, tools/list
// answers the generic tools (recommend, execute, ... taking a capability key) plus find_capability.
// Its own file: the catalog reader (how much to read) and the tool set (what to list) both follow it.

export const DEFAULT_GENERIC_TOOLS_ABOVE = 200;

/** Whether a catalog of `capabilityCount` capabilities gets the generic tools only. */
export function usesGenericToolsOnly(capabilityCount: number, genericToolsAbove: number): boolean {
  return capabilityCount > genericToolsAbove;
}
