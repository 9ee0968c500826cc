// The JSON compiled once in the router must be, byte for byte, what the gateway wrote before: the
// answer encoded, decoded as the gateway's client decodes it, catalogVersion dropped and the rest
// JSON.stringify'd; and the stored form must read back as the answer, field for field.
import { RecommendResponse } from "@agentic/proto/router/v1";
import { capability, HEALTH, route, SCORING } from "../../test/routes";
import { ownedResourceRelationship } from "../domain/acquisitions";
import { recommend, type RecommendationInput } from "../domain/recommendation";
import { RouteHealthBook } from "../domain/route-health";
import { answerJson, withCatalogVersion } from "./answer-json";

const NOW = Date.parse("2026-11-22T10:00:00Z");

function ranked(opts: Partial<RecommendationInput>): RecommendResponse {
  const routes = opts.routes ?? [route("resend"), route("sendgrid", { startingCostCredits: 14 })];
  const keys = [...routes, ...(opts.acquisition?.routes ?? [])].map((r) => r.routeKey);
  return recommend({
    capability: capability(),
    routes,
    catalogVersion: "v1",
    preferences: { goals: ["cost", "reliability"], source: "request" },
    fields: {},
    balanceCredits: 1_000,
    health: new RouteHealthBook(HEALTH).snapshot(keys, NOW),
    settings: SCORING,
    ...opts,
  });
}

const ownedInboxSend = route("agentmail", {
  networkKey: "mpp",
  settlementRail: "mpp",
  routeMode: "byo",
  managedByAgenticApi: false,
  startingCostCredits: 3,
});
const acquisition = {
  relationship: ownedResourceRelationship("email.send")!,
  capability: capability("email.inbox.buy"),
  routes: [route("agentmail", { networkKey: "mpp", settlementRail: "mpp", startingCostCredits: 2_000 }, "email.inbox.buy")],
};

const answers: Record<string, RecommendResponse> = {
  "two managed routes": ranked({}),
  "workflows, byo and too few credits": ranked({
    routes: [route("resend"), ownedInboxSend, route("mailgun", { routeMode: "byo", managedByAgenticApi: false, startingCostCredits: 2 })],
    acquisition,
    balanceCredits: 1,
  }),
  "a gated route, a price cap and no wallet read": ranked({
    routes: [
      route("postmark", { executionGated: true, startingCostCredits: 5 }),
      route("resend"),
      route("ses", { startingCostCredits: 40 }),
    ],
    maxPriceCredits: 20,
    balanceCredits: undefined,
    rankingOnly: true,
  }),
  "stored, limited, non-ASCII and control characters": {
    ...ranked({}),
    recommendationId: "rec_1",
    recommendationExpiresAt: "2026-11-22T10:15:00.000Z",
    candidatesOmitted: 0,
    nextActions: ["Pay 3 credits — ≈ 0.003 USD ✓", 'Sûr \u2028 "quoted" \\ \n tab\t \u0001'],
  },
};

/** What the gateway wrote before: the decoded answer without catalogVersion, stringified. */
function asTheGatewayWroteIt(response: RecommendResponse): string {
  const { catalogVersion: _dropped, ...body } = RecommendResponse.decode(RecommendResponse.encode(response).finish());
  return JSON.stringify(body);
}

describe("answerJson", () => {
  it.each(Object.keys(answers))("%s: the bytes the gateway wrote from the decoded answer", (name) => {
    const response = answers[name]!;
    expect(answerJson(response)).toBe(asTheGatewayWroteIt(response));
  });

  it("covers workflows, blocks and escaped text", () => {
    expect(answers["workflows, byo and too few credits"]!.bestWorkflowRecommendation).toBeDefined();
    expect(answers["a gated route, a price cap and no wallet read"]!.candidates.some((c) => c.unavailableReasonCode !== undefined)).toBe(
      true,
    );
    expect(answerJson(answers["stored, limited, non-ASCII and control characters"]!)).toContain('\\"quoted\\" \\\\ \\n tab\\t \\u0001');
  });

  it("leaves out what the ranking put on the answer beyond its fields", () => {
    const response = { ...answers["two managed routes"]!, internalNote: "not a field" } as RecommendResponse;
    expect(answerJson(response)).toBe(asTheGatewayWroteIt(response));
  });

  it.each(Object.keys(answers))("%s: the stored form reads back as the answer", (name) => {
    const response = answers[name]!;
    const stored = JSON.parse(withCatalogVersion(answerJson(response), 'v7 "odd"')) as unknown;
    const decoded = RecommendResponse.decode(RecommendResponse.encode({ ...response, catalogVersion: 'v7 "odd"' }).finish());
    expect(RecommendResponse.fromJSON(stored)).toEqual(decoded);
  });
});
