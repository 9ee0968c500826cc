// The MongoDB store's quotes: a reservation hold and the quote record, written in one transaction
// (drawn by a hold in money.ts).
import { decideCreateQuote } from "../../domain/decide-quote";
import { quoteSpender, type CreateQuoteCommand, type CreateQuoteResult, type QuoteRecord } from "../../domain/quote";
import type { Hold } from "../../domain/types";
import { applied, newEntryId } from "./money";
import type { MongoDb } from "./mongo-db";
import { holdIn, openQuotesIn, quoteIn, spendChecksIn, walletIn } from "./reads";

export class MongoQuotes {
  constructor(private readonly m: MongoDb) {}

  async createQuote(cmd: CreateQuoteCommand): Promise<CreateQuoteResult> {
    return this.m.transaction(async (session) => {
      const existing = await quoteIn(this.m, cmd.quoteId, session);
      const facts = {
        existing,
        wallet: await walletIn(this.m, existing?.userId ?? cmd.userId, session),
        openQuotes: await openQuotesIn(this.m, cmd.keyId, cmd.now, session),
        spend: await spendChecksIn(this.m, quoteSpender(cmd), cmd.now, session),
      };
      return applied(this.m, decideCreateQuote(cmd, facts, newEntryId), session);
    });
  }

  async getQuote(quoteId: string): Promise<{ quote: QuoteRecord; reservation: Hold | null } | null> {
    const quote = await quoteIn(this.m, quoteId);
    return quote ? { quote, reservation: await holdIn(this.m, quote.reservationHoldId) } : null;
  }
}
