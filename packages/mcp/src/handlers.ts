// What each tool does when called: checks the arguments MCP adds (the target of the generic tools,
// idempotencyKey), then calls the REST API through the SDK client, so a tool call meets exactly the
// API's rules (authentication, limits, validation against the contract, money). The capability's
// own fields are checked by the API, which answers INVALID_INPUT naming the field.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { AgenticApiClient } from "@agentic-api/sdk";
import { DERIVED_KEY_WINDOW, deriveIdempotencyKey } from "./idempotency";
import { answer, errorOf, failure, invalidArguments } from "./results";
import type { Target, ToolDef, ToolSet } from "./tool-set";

export interface CallContext {
  client: AgenticApiClient;
  /** apiKeyFingerprint() of the key the client sends; undefined when the server has none. */
  keyFingerprint: string | undefined;
  /** What to do when there is no key (stdio: set AGENTIC_API_KEY in the server's environment). */
  missingKeyHint: string;
  /** Aborted when the client cancels the call. */
  signal?: AbortSignal;
}

type Args = Record<string, unknown>;

const isObject = (value: unknown): value is Args => typeof value === "object" && value !== null && !Array.isArray(value);

/** The capability a generic tool names in its arguments, or the refusal. */
function targetOf(args: Args, tool: string): Target | CallToolResult {
  const { domain, capabilityId } = args;
  if (typeof domain !== "string" || domain === "" || typeof capabilityId !== "string" || capabilityId === "") {
    return invalidArguments(
      `${tool}: domain and capabilityId must be non-empty strings`,
      'Name the capability, e.g. {domain: "geo", capabilityId: "time-current"}; list_capability_tools lists them.',
    );
  }
  return { domain, capabilityId };
}

function inputOf(args: Args, tool: string, required: boolean): Args | CallToolResult {
  const { input } = args;
  if (input === undefined && !required) return {};
  if (!isObject(input)) {
    return invalidArguments(
      `${tool}: input must be an object`,
      'Put the capability\'s fields in input, e.g. {"timezone": "Europe/Lisbon"}; get_capability_contract lists them.',
    );
  }
  return input;
}

const refused = (value: unknown): value is CallToolResult => isObject(value) && (value as CallToolResult).isError === true;

function missingKey(ctx: CallContext): CallToolResult {
  return failure({ success: false, code: "AGENTIC_API_KEY_REQUIRED", error: "this MCP server has no API key", hint: ctx.missingKeyHint });
}

export async function runTool(def: ToolDef, set: ToolSet, args: Args, ctx: CallContext): Promise<CallToolResult> {
  try {
    switch (def.action.kind) {
      case "find_capability":
        return await findCapability(args, ctx);
      case "list_domains":
        return set.unavailable ? failure(set.unavailable) : answer({ domains: set.domains });
      case "list_capability_tools":
        return set.unavailable ? failure(set.unavailable) : listCapabilityTools(set, args);
      case "get_capability_contract": {
        const target = targetOf(args, def.name);
        if (refused(target)) return target;
        const contract = await ctx.client.catalog.capabilities.contract(target.domain, target.capabilityId, { signal: ctx.signal });
        return answer(contract as unknown as Args);
      }
      case "recommend": {
        const target = def.action.target ?? targetOf(args, def.name);
        if (refused(target)) return target;
        const input = def.action.target ? args : inputOf(args, def.name, false);
        if (refused(input)) return input;
        if (ctx.keyFingerprint === undefined) return missingKey(ctx);
        const rec = await ctx.client.capabilities.recommend({
          domain: target.domain,
          capability: target.capabilityId,
          input,
          // Only the generic tool takes a limit: a capability's own tool passes its arguments as the body.
          ...(!def.action.target && args.limit !== undefined ? { limit: args.limit as number } : {}),
          signal: ctx.signal,
        });
        return answer(rec as unknown as Args);
      }
      case "execute":
        return await execute(def, args, ctx);
    }
  } catch (err) {
    return failure(errorOf(err));
  }
}

/** find_capability: POST /route (or the domain's route) through the SDK; the API checks the task and limit and names a bad one. */
async function findCapability(args: Args, ctx: CallContext): Promise<CallToolResult> {
  const { task, limit, domain } = args;
  if (typeof task !== "string" || task.trim() === "") {
    return invalidArguments(
      "find_capability: task must be a non-empty string",
      'Describe what you want done, e.g. {"task": "what time is it in Tokyo"}.',
    );
  }
  if (limit !== undefined && typeof limit !== "number")
    return invalidArguments("find_capability: limit must be a number", "Send limit 1-20, or leave it out.");
  if (domain !== undefined && typeof domain !== "string")
    return invalidArguments("find_capability: domain must be a string", "Give a domainKey from list_domains, or leave domain out.");
  const routed = await ctx.client.route({
    task,
    ...(limit !== undefined ? { limit } : {}),
    ...(domain !== undefined ? { domain } : {}),
    signal: ctx.signal,
  });
  const top = routed.matches[0];
  const note = routed.abstained
    ? "Nothing in the catalog does this task; the nearest capabilities are listed below the threshold."
    : `Best match: ${top?.capabilityKey} (score ${top?.score}). Next: get_capability_contract {domain: "${top?.domainKey}", capabilityId: "${top?.capabilityId}"}.`;
  return answer(routed as unknown as Args, note);
}

function listCapabilityTools(set: ToolSet, args: Args): CallToolResult {
  const { domain } = args;
  if (domain !== undefined && typeof domain !== "string")
    return invalidArguments("list_capability_tools: domain must be a string", "Give a domainKey from list_domains, or leave domain out.");
  if (domain !== undefined && !set.domains.some((d) => d.domainKey === domain)) {
    return failure({
      success: false,
      code: "DOMAIN_NOT_FOUND",
      error: `domain '${domain}' does not exist`,
      hint: "List the domains with list_domains.",
    });
  }
  return answer({ capabilities: set.capabilities.filter((c) => domain === undefined || c.domainKey === domain) });
}

/** A capability's own execute tool (`bound`) takes its fields as arguments; the generic one names the capability and nests them in input. */
async function execute(def: ToolDef, args: Args, ctx: CallContext): Promise<CallToolResult> {
  const bound = def.action.kind === "execute" ? def.action.target : undefined;
  const target = bound ?? targetOf(args, def.name);
  if (refused(target)) return target;
  const { idempotencyKey: given, ...fields } = args;
  const body = bound ? fields : inputOf(args, def.name, true);
  if (refused(body)) return body;
  if (given !== undefined && (typeof given !== "string" || given.length === 0 || given.length > 255)) {
    return invalidArguments(
      `${def.name}: idempotencyKey must be a string of 1 to 255 characters`,
      "Leave idempotencyKey out (retries are then replayed), or send e.g. a UUID.",
    );
  }
  if (ctx.keyFingerprint === undefined) return missingKey(ctx);
  const derived = given === undefined;
  const idempotencyKey = derived ? deriveIdempotencyKey({ keyFingerprint: ctx.keyFingerprint, ...target, body }) : given;
  const keyed = { idempotencyKey, idempotencyKeyDerived: derived };
  try {
    const result = await ctx.client.capabilities.execute({
      domain: target.domain,
      capability: target.capabilityId,
      input: body,
      idempotencyKey,
      signal: ctx.signal,
    });
    const { executionId, replayed } = result.lastResponse;
    const structured = { ...result, ...(executionId ? { executionId } : {}), replayed, ...keyed };
    const note = replayed
      ? `Replayed: the stored result of an earlier identical call (idempotencyKey ${idempotencyKey}); nothing ran or was charged now. To perform it again on purpose, call again with a new idempotencyKey.`
      : `Charged ${result.creditsCharged ?? 0} credits on ${result.routeKey ?? "its route"}. A retry of this exact call${derived ? "" : " with the same idempotencyKey"} replays this result for ${DERIVED_KEY_WINDOW} without paying again.`;
    return answer(structured, note);
  } catch (err) {
    const error = { ...errorOf(err), ...keyed };
    // The API stores the outcome of an execution that started (a 402 or a provider's failure) under
    // its key, so this call with the same derived key would only get it again: trying again takes a new key.
    if (derived && error.status !== undefined && (error.status === 402 || error.status >= 500)) {
      error.hint = `${error.hint ? `${error.hint} ` : ""}This exact call may get this same answer for ${DERIVED_KEY_WINDOW} (its derived idempotencyKey keeps it): to try again after fixing the cause, pass a new idempotencyKey.`;
    }
    return failure(error);
  }
}
