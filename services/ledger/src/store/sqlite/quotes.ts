// The SQLite store's quotes: a reservation hold and the quote record, written together (drawn by a
// hold in money.ts).
import { decideCreateQuote } from "../../domain/decide-quote";
import { quoteSpender, type CreateQuoteCommand, type CreateQuoteResult, type QuoteRecord } from "../../domain/quote";
import type { Hold } from "../../domain/types";
import { applied, newEntryId } from "./money";
import { holdById, openQuotesOf, quoteById, spendChecks, walletRow } from "./reads";
import type { SqliteDb } from "./sqlite-db";

export class SqliteQuotes {
  constructor(private readonly db: SqliteDb) {}

  async createQuote(cmd: CreateQuoteCommand): Promise<CreateQuoteResult> {
    return this.db.transaction(() => {
      const existing = quoteById(this.db, cmd.quoteId);
      const facts = {
        existing,
        wallet: walletRow(this.db, existing?.userId ?? cmd.userId),
        openQuotes: openQuotesOf(this.db, cmd.keyId, cmd.now),
        spend: spendChecks(this.db, quoteSpender(cmd), cmd.now),
      };
      return applied(this.db, decideCreateQuote(cmd, facts, newEntryId));
    });
  }

  async getQuote(quoteId: string): Promise<{ quote: QuoteRecord; reservation: Hold | null } | null> {
    return this.db.read(() => {
      const quote = quoteById(this.db, quoteId);
      return quote ? { quote, reservation: holdById(this.db, quote.reservationHoldId) } : null;
    });
  }
}
