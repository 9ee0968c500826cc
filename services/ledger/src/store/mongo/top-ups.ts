// The MongoDB store's top-ups: one per x402 payment, pending until it is credited (through a grant
// entry, decided in domain/decide-top-up.ts) or failed.
import { decideFinishTopUp } from "../../domain/decide-top-up";
import {
  decideTopUpStart,
  type FinishTopUpCommand,
  type StartTopUpCommand,
  type TopUpFinish,
  type TopUpRecord,
  type TopUpStart,
} from "../../domain/top-up";
import { toTopUp } from "./docs";
import { applied, newEntryId } from "./money";
import type { MongoDb } from "./mongo-db";
import { walletIn } from "./reads";

export class MongoTopUps {
  constructor(private readonly m: MongoDb) {}

  async getTopUp(topUpId: string): Promise<TopUpRecord | null> {
    const doc = await this.m.topUps.findOne({ _id: topUpId });
    return doc ? toTopUp(doc) : null;
  }

  async startTopUp(cmd: StartTopUpCommand): Promise<TopUpStart> {
    return this.m.transaction(async (session): Promise<TopUpStart> => {
      const doc = await this.m.topUps.findOne({ _id: cmd.record.topUpId }, { session });
      const existing = doc ? toTopUp(doc) : null;
      const decision = decideTopUpStart(existing, cmd);
      if (decision.action === "exists") return { status: "exists", record: existing! };
      if (decision.action === "retry") {
        // Conditioned on the attempt it read: of two concurrent takeovers one matches.
        const taken = await this.m.topUps.updateOne(
          { _id: decision.record.topUpId, state: "pending", attemptedAt: existing!.attemptedAt },
          { $set: { attemptedAt: decision.record.attemptedAt, attempts: decision.record.attempts } },
          { session },
        );
        return taken.modifiedCount === 1 ? { status: "retry", record: decision.record } : { status: "exists", record: existing! };
      }
      const { topUpId, ...rest } = cmd.record;
      // A concurrent first insert of the same payment is a duplicate key: the transaction reruns and reads it.
      await this.m.topUps.insertOne({ _id: topUpId, ...rest }, { session });
      return { status: "started", record: { ...cmd.record } };
    });
  }

  async finishTopUp(cmd: FinishTopUpCommand): Promise<TopUpFinish> {
    return this.m.transaction(async (session) => {
      const doc = await this.m.topUps.findOne({ _id: cmd.topUpId }, { session });
      const topUp = doc ? toTopUp(doc) : null;
      const facts = { topUp, wallet: topUp ? await walletIn(this.m, topUp.userId, session) : null };
      return applied(this.m, decideFinishTopUp(cmd, facts, newEntryId), session);
    });
  }

  async listStalePendingTopUps(staleBefore: Date, limit: number): Promise<TopUpRecord[]> {
    const docs = await this.m.topUps
      .find({ state: "pending", attemptedAt: { $lte: staleBefore } })
      .sort({ attemptedAt: 1, _id: 1 })
      .limit(limit)
      .toArray();
    return docs.map(toTopUp);
  }
}
