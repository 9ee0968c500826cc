// A recommend answer as JSON, compiled once in the router: the REST body the gateway writes as it
// comes (RecommendRequest.answer_as_json), and inside the value the recommendation bucket stores.
// The text is what JSON.stringify writes for the answer as a client decodes it (ts-proto's
// fromPartial builds that same shape: every field in field order, defaults written, unset optional
// fields undefined and so left out), catalogVersion and answerJson aside: the first is not part of the
// REST body, the second is this text's own carrier.
import { RecommendResponse } from "@agentic/proto/router/v1";

type LeftOut = "catalogVersion" | "answerJson";

/** The answer's REST body: every field but catalogVersion (and answerJson). */
export function answerJson(response: RecommendResponse): string {
  const decodedShape: Omit<RecommendResponse, LeftOut> & Partial<Pick<RecommendResponse, LeftOut>> =
    RecommendResponse.fromPartial(response);
  // Undefined, so JSON.stringify leaves them out where they sit, without copying the answer to drop them.
  decodedShape.catalogVersion = undefined;
  decodedShape.answerJson = undefined;
  return JSON.stringify(decodedShape);
}

/**
 * The answer's proto JSON (what RecommendResponse.fromJSON reads) from its REST body: the body with
 * catalogVersion put back, spliced rather than encoded a second time.
 */
export function withCatalogVersion(bodyJson: string, catalogVersion: string): string {
  // The body is an object with at least `success` (never "{}"), so a comma always follows.
  return `{"catalogVersion":${JSON.stringify(catalogVersion)},${bodyJson.slice(1)}`;
}
