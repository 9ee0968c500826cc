// Schema 8's data step: agent names stored before policies compared them normalized are rewritten in
// their normalized form (normalizeAgentName), so "Alpha"'s policy and spend are alpha's. Spend buckets
// of two spellings of one agent are added together (a name of invisible characters only joins the
// holds without an agent, as spendBucketOf files its settlements); of two policies of one agent, the
// one set last stays, and one whose name normalizes to nothing is left as it was (it matches no hold).
import type { DatabaseSync } from "node:sqlite";
import { normalizeAgentName } from "@agentic/platform";

interface Renamed {
  from: string;
  to: string;
}

/** The stored names of `column` in `table` whose normalized form differs (and, unless `toEmpty`, is not empty). */
function renamed(db: DatabaseSync, table: string, column: string, toEmpty = false): Renamed[] {
  const rows = db.prepare(`SELECT DISTINCT ${column} AS name FROM ${table} WHERE ${column} IS NOT NULL AND ${column} <> ''`).all() as {
    name: string;
  }[];
  return rows.map(({ name }) => ({ from: name, to: normalizeAgentName(name) })).filter((r) => (toEmpty || r.to !== "") && r.to !== r.from);
}

export function normalizeStoredAgentNames(db: DatabaseSync): void {
  for (const { from, to } of renamed(db, "spend_policies", "agent_name")) {
    const rows = db.prepare("SELECT key_id, updated_at FROM spend_policies WHERE agent_name = ?").all(from) as {
      key_id: string;
      updated_at: number;
    }[];
    for (const row of rows) {
      const kept = db.prepare("SELECT updated_at FROM spend_policies WHERE key_id = ? AND agent_name = ?").get(row.key_id, to) as
        { updated_at: number } | undefined;
      if (kept && kept.updated_at >= row.updated_at) {
        db.prepare("DELETE FROM spend_policies WHERE key_id = ? AND agent_name = ?").run(row.key_id, from);
        continue;
      }
      if (kept) db.prepare("DELETE FROM spend_policies WHERE key_id = ? AND agent_name = ?").run(row.key_id, to);
      db.prepare("UPDATE spend_policies SET agent_name = ? WHERE key_id = ? AND agent_name = ?").run(to, row.key_id, from);
    }
  }
  for (const { from, to } of renamed(db, "spend_buckets", "agent_name", true)) {
    db.prepare(
      `INSERT INTO spend_buckets (key_id, day, agent_name, capability_key, held_credits, held_count, captured_credits, captured_count)
       SELECT key_id, day, ?, capability_key, held_credits, held_count, captured_credits, captured_count FROM spend_buckets WHERE agent_name = ?
       ON CONFLICT (key_id, day, agent_name, capability_key) DO UPDATE SET
         held_credits = held_credits + excluded.held_credits, held_count = held_count + excluded.held_count,
         captured_credits = captured_credits + excluded.captured_credits, captured_count = captured_count + excluded.captured_count`,
    ).run(to, from);
    db.prepare("DELETE FROM spend_buckets WHERE agent_name = ?").run(from);
  }
  // Holds and quotes keep the name they were made with for the record; their spend is filed by spendBucketOf, which normalizes.
}
