// Human views of the API's answers (the --json output is the answers themselves).
import type {
  CapabilityCatalogEntry,
  CapabilityContract,
  CapabilityFieldContract,
  CapabilityOperationContract,
  DomainCatalogEntry,
  ExecuteResult,
  RecommendationResponse,
  RouteCatalogEntry,
  RouteTaskResponse,
  UsageItem,
  WalletResponse,
} from "../types";
import { credits, table } from "./table";

export function renderDomains(domains: DomainCatalogEntry[]): string {
  return table(
    ["DOMAIN", "STATUS", "LIVE", "FROM (CREDITS)", "LABEL"],
    domains.map((d) => [d.domainKey, d.status, `${d.liveCapabilityCount}/${d.totalCapabilityCount}`, d.startingPriceCredits, d.label]),
  );
}

export function renderCapabilities(capabilities: CapabilityCatalogEntry[]): string {
  return table(
    ["CAPABILITY", "STATUS", "FROM (CREDITS)", "PROVIDERS", "LABEL"],
    capabilities.map((c) => [c.capabilityId, c.status, c.startingPriceCredits, c.enabledProviders.join(","), c.label]),
  );
}

export function renderRoutes(routes: RouteCatalogEntry[]): string {
  return table(
    ["ROUTE", "PROVIDER", "STATUS", "MODE", "RAIL", "PRICE (CREDITS)", "BILLING"],
    routes.map((r) => [r.routeKey, r.providerKey, r.status, r.routeMode, r.settlementRail, r.startingCostCredits, r.billing]),
  );
}

function fieldRows(fields: CapabilityFieldContract[], prefix = ""): Array<Array<string | undefined>> {
  return fields.flatMap((f) => {
    const type = f.type === "array" && f.itemsType ? `${f.itemsType}[]` : f.type;
    const allowed = f.enumValues?.length ? `one of ${f.enumValues.join(", ")}` : undefined;
    const notes = [allowed, f.format && `format ${f.format}`, ...(f.notes ?? [])].filter(Boolean).join("; ");
    return [[`${prefix}${f.name}`, type, f.required ? "yes" : "", notes], ...fieldRows(f.fields ?? [], `${prefix}${f.name}.`)];
  });
}

function renderOperation(name: string, op: CapabilityOperationContract | undefined): string {
  if (!op) return `${name}: none`;
  const lines = [`${name} (${op.status}):`, table(["FIELD", "TYPE", "REQUIRED", "NOTES"], fieldRows(op.fields))];
  if (op.oneOfRequired?.length) lines.push(`at least one of: ${op.oneOfRequired.map((g) => g.join(" | ")).join("; ")}`);
  if (op.requestExample) lines.push(`example: ${JSON.stringify(op.requestExample)}`);
  return lines.join("\n");
}

export function renderContract(contract: CapabilityContract): string {
  return [
    `${contract.capabilityKey} (contract ${contract.contractStatus})`,
    "",
    renderOperation("recommend", contract.recommend),
    "",
    renderOperation("execute", contract.execute),
    ...(contract.notes.length ? ["", ...contract.notes.map((n) => `note: ${n}`)] : []),
  ].join("\n");
}

export function renderRecommendation(rec: RecommendationResponse): string {
  const lines = [
    `recommended: ${rec.recommendedProvider} (${rec.recommendedRouteKey}, ${rec.recommendedRouteMode})`,
    `can execute now: ${rec.canExecuteNow ? "yes" : "no"}`,
  ];
  if (!rec.canExecuteNow && rec.bestExecutableRouteKey)
    lines.push(`best executable: ${rec.bestExecutableProvider} (${rec.bestExecutableRouteKey})`);
  if (rec.blockingRequirements.length) lines.push(`blocking: ${rec.blockingRequirements.join(", ")}`);
  for (const action of rec.nextActions) lines.push(`next: ${action}`);
  lines.push(
    "",
    table(
      ["ROUTE", "PROVIDER", "PRICE (CREDITS)", "SCORE", "EXECUTABLE", "BLOCKING"],
      rec.candidates.map((c) => [
        c.routeKey,
        c.provider,
        c.priceCredits,
        c.score.toFixed(3),
        c.canExecuteNow ? "yes" : "no",
        c.blockingRequirements.join(","),
      ]),
    ),
  );
  return lines.join("\n");
}

export function renderExecution(result: ExecuteResult): string {
  const meta = result.lastResponse;
  const lines = [
    `${result.status ?? "succeeded"} via ${result.provider ?? "?"} (${result.routeKey ?? "?"})`,
    `charged: ${credits(result.creditsCharged)}`,
    `execution: ${meta.executionId ?? "-"}  idempotency key: ${meta.idempotencyKey}${meta.replayed ? "  (replayed)" : ""}`,
  ];
  if (result.providerMessageId) lines.push(`provider id: ${result.providerMessageId}`);
  if (result.usage) lines.push(`tokens: ${result.usage.inputTokens} in, ${result.usage.outputTokens} out`);
  lines.push("", JSON.stringify(result.data ?? {}, null, 2));
  return lines.join("\n");
}

export function renderWallet(wallet: WalletResponse): string {
  return `${wallet.userId}: ${credits(wallet.balanceCredits)}`;
}

export function renderUsage(items: UsageItem[]): string {
  if (items.length === 0) return "no usage yet";
  return table(
    ["CREATED", "KIND", "CAPABILITY", "ROUTE", "CREDITS", "STATUS"],
    items.map((i) => [
      i.createdAt,
      i.kind,
      i.capabilityKey,
      i.routeKey,
      i.kind === "charge" || i.kind === undefined ? i.creditsCharged : i.amountCredits,
      i.status ?? i.reason,
    ]),
  );
}

export function renderRouteAnswer(answer: RouteTaskResponse): string {
  const rows = table(
    ["CAPABILITY", "SCORE", "STATUS", "FROM (CREDITS)", "DOMAIN", "ID", "LABEL"],
    answer.matches.map((m) => [
      m.capabilityKey,
      m.score.toFixed(2),
      m.status,
      m.startingPriceCredits ?? undefined,
      m.domainKey,
      m.capabilityId,
      m.label,
    ]),
  );
  const c = answer.constraints;
  const said = [
    c.optimizationPreferences.length > 0 ? `prefer ${c.optimizationPreferences.join(", ")}` : undefined,
    c.maxPriceCredits !== undefined ? `at most ${c.maxPriceCredits} credits` : undefined,
    c.provider !== undefined ? `via ${c.provider}` : undefined,
    ...Object.entries(c.fields).map(([name, value]) => `${name}: ${value}`),
  ].filter((x): x is string => x !== undefined);
  const top = answer.matches[0];
  const verdict = answer.abstained
    ? "nothing in the catalog does this task (the nearest are listed below the threshold)"
    : `best match: ${top?.capabilityKey} (next: agentic-api contract ${top?.domainKey} ${top?.capabilityId})`;
  return [verdict, rows, ...(said.length > 0 ? [`constraints: ${said.join("; ")}`] : [])].join("\n");
}
