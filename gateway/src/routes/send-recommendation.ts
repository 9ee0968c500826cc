// Writes the router's recommend answer as the REST body. The router compiles the body once and sends
// its bytes (answer_json, asked by answer_as_json), written as they come; a router of the release before
// answers the fields instead (a rolling deploy), and the body is then compiled here from them, the same
// bytes: every field but catalogVersion.
import type { ServerResponse } from "node:http";
import type { RecommendResponse } from "@agentic/proto/router/v1";
import { sendJson, sendJsonBytes } from "../http/send-json";

export function sendRecommendation(res: ServerResponse, answer: RecommendResponse): void {
  if (answer.answerJson !== undefined) return sendJsonBytes(res, answer.answerJson);
  const { catalogVersion: _internal, answerJson: _absent, ...recommendation } = answer;
  sendJson(res, recommendation);
}
