// The body of a recommend is the same bytes whether the router sent them compiled (answer_json) or, as a
// router of the release before does, sent the fields: every field of the decoded answer but catalogVersion.
// (That the router's compiled text is exactly this is packages/ranking/src/store/answer-json.test.ts.)
import { createServer, request as httpRequest, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { RecommendResponse } from "@agentic/proto/router/v1";
import { sendRecommendation } from "./send-recommendation";

/** An answer as the gateway's client decodes it: every field present, unset optionals undefined. */
const decoded = RecommendResponse.decode(
  RecommendResponse.encode(
    RecommendResponse.fromPartial({
      success: true,
      productKey: "email.send",
      preferenceSource: "request",
      optimizationPreferences: ["cost"],
      recommendedProvider: "resend",
      recommendedRouteKey: "email.send.resend",
      recommendedRouteMode: "managed",
      canExecuteNow: false,
      blockingRequirements: ["CREDITS_REQUIRED"],
      nextActions: ["Add 3 credits — sûr"],
      candidates: [
        { provider: "resend", routeKey: "email.send.resend", routeMode: "managed", score: 0.98, priceCredits: 3, reasons: ["cheapest"] },
      ],
      catalogVersion: "v1",
      recommendationId: "rec_1",
      recommendationExpiresAt: "2026-11-29T20:00:00.000Z",
    }),
  ).finish(),
);
const { catalogVersion: _internal, answerJson: _absent, ...fields } = decoded;
const body = JSON.stringify(fields);

const answers: Record<string, RecommendResponse> = {
  compiled: RecommendResponse.fromPartial({ answerJson: Buffer.from(body) }),
  fields: decoded,
};

let server: Server;
let port: number;

beforeAll(async () => {
  server = createServer((req, res) => sendRecommendation(res, answers[(req.url ?? "").slice(1)]!)).listen(0, "127.0.0.1");
  await new Promise((resolve) => server.once("listening", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(() => new Promise((resolve) => server.close(resolve)));

function get(path: string): Promise<{ type: string | undefined; length: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    httpRequest({ host: "127.0.0.1", port, path }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({ type: res.headers["content-type"], length: res.headers["content-length"], body: Buffer.concat(chunks).toString("utf8") }),
      );
    })
      .on("error", reject)
      .end();
  });
}

describe("sendRecommendation", () => {
  it.each(Object.keys(answers))("writes the answer's REST body from its %s", async (name) => {
    const answered = await get(`/${name}`);
    expect(answered).toEqual({ type: "application/json; charset=utf-8", length: String(Buffer.byteLength(body)), body });
    expect(answered.body).not.toContain("catalogVersion");
    expect(answered.body).not.toContain("answerJson");
  });
});
