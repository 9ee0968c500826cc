// Answered recommendations in the NATS KV bucket every router replica shares, so GetRecommendation
// answers the same from any of them. A value is the stored record as JSON, the answer as its REST
// body with catalogVersion added (answer-json.ts), which RecommendResponse.fromJSON reads as it reads
// the proto JSON form written before (exact: field names and numbers round-trip). The bucket drops a value two lifetimes after
// it was written, so an expired id still answers RECOMMENDATION_EXPIRED for one more lifetime; past
// RECOMMENDATION_STORE_MAX_BYTES the oldest answers go first (their ids then answer as unknown).
import type { KV, NatsConnection } from "nats";
import { sentTogetherPerTurn } from "@agentic/platform";
import { RecommendResponse } from "@agentic/proto/router/v1";
import type { RecommendationStore, StoredRecommendation } from "../domain/ports";
import { withCatalogVersion } from "./answer-json";
import { RECOMMENDATIONS_BUCKET } from "./bucket-names";
import { openKvBucket, storeCall } from "./kv-bucket";
import { bindReadOnly, type BucketBinding } from "./read-only-bucket";

/** What a recommendation id may look like: the bucket's key alphabet, bounded (anything else is unknown). */
const ID_PATTERN = /^[A-Za-z0-9_-]{1,100}$/;

interface StoredJson {
  userId: string;
  domainKey: string;
  capabilityId: string;
  expiresAtMs: number;
  response: unknown;
}

export async function openRecommendationStore(
  nc: NatsConnection,
  opts: { ttlMs: number; replicas: number; maxBytes: number },
): Promise<RecommendationStore> {
  const kv = await openKvBucket(nc, RECOMMENDATIONS_BUCKET, {
    ttlMs: 2 * opts.ttlMs,
    replicas: opts.replicas,
    maxBytes: opts.maxBytes,
    description: "router: answered recommendations by recommendationId",
  });
  return new KvRecommendationStore(kv);
}

/** The same bucket, read only (the executor's: it runs a stored recommendation, the router wrote it). */
export function openRecommendationReader(nc: NatsConnection): Pick<RecommendationStore, "get"> {
  return new KvRecommendationReader(bindReadOnly(nc, RECOMMENDATIONS_BUCKET));
}

class KvRecommendationReader implements Pick<RecommendationStore, "get"> {
  constructor(private readonly bucket: BucketBinding) {}

  async get(recommendationId: string): Promise<StoredRecommendation | undefined> {
    if (!ID_PATTERN.test(recommendationId)) return undefined;
    const entry = await storeCall("recommendation", async () => (await this.bucket())?.get(recommendationId) ?? null);
    if (!entry || entry.operation !== "PUT") return undefined;
    const value = entry.json<StoredJson>();
    return { ...value, response: RecommendResponse.fromJSON(value.response) };
  }
}

class KvRecommendationStore extends KvRecommendationReader implements RecommendationStore {
  /** One socket write for every answer stored in the same event-loop turn. */
  private readonly putValue: (key: string, value: string) => Promise<number>;

  constructor(kv: KV) {
    super(async () => kv);
    this.putValue = sentTogetherPerTurn((key, value) => kv.put(key, value));
  }

  async put(stored: StoredRecommendation, answerJson: string): Promise<void> {
    const { userId, domainKey, capabilityId, expiresAtMs } = stored;
    const record: Omit<StoredJson, "response"> = { userId, domainKey, capabilityId, expiresAtMs };
    const head = JSON.stringify(record);
    // The record's JSON with the answer's text as its last field, "response" (StoredJson's shape).
    const value = `${head.slice(0, -1)},"response":${withCatalogVersion(answerJson, stored.response.catalogVersion)}}`;
    await storeCall("recommendation", () => this.putValue(stored.response.recommendationId, value));
  }
}
