// Which migrations a database needs, from the numbered list and what it records as run: the pure part
// of the MongoDB migrations (the runner and the start-up check both decide here).
import { checkMigrationList, schemaProblem, schemaStatus, type MigrationStep } from "./migration-plan";
import { MONGO_MIGRATIONS } from "./migrations";

const step = (id: number, name = `step ${id}`): MigrationStep<unknown> => ({ id, name, up: async () => {} });
const three = [step(1, "indexes"), step(2, "names"), step(3, "backfill")];

describe("the migration list", () => {
  it("the shipped list is numbered 1, 2, 3, ... in order, each with a name", () => {
    expect(() => checkMigrationList(MONGO_MIGRATIONS)).not.toThrow();
    expect(MONGO_MIGRATIONS.length).toBeGreaterThan(0);
    for (const m of MONGO_MIGRATIONS) expect(m.name).not.toBe("");
  });

  it("refuses a gap, a repeat or an order other than the ids'", () => {
    expect(() => checkMigrationList([step(1), step(3)])).toThrow(/migration 2 is numbered 3/);
    expect(() => checkMigrationList([step(1), step(1)])).toThrow(/migration 2 is numbered 1/);
    expect(() => checkMigrationList([step(2), step(1)])).toThrow(/migration 1 is numbered 2/);
    expect(() => schemaStatus([step(0)], [])).toThrow();
  });
});

describe("where a database stands", () => {
  it("a new database needs every migration, in order", () => {
    expect(schemaStatus(three, [])).toEqual({
      version: 0,
      required: 3,
      pending: [
        { id: 1, name: "indexes" },
        { id: 2, name: "names" },
        { id: 3, name: "backfill" },
      ],
      unknown: [],
    });
  });

  it("one migrated by an older release needs only the newer ones", () => {
    const status = schemaStatus(three, [2, 1]);
    expect(status.version).toBe(2);
    expect(status.pending).toEqual([{ id: 3, name: "backfill" }]);
  });

  it("a run cut off after a later one leaves the earlier gap pending, and the version below it", () => {
    const status = schemaStatus(three, [1, 3]);
    expect(status.version).toBe(1);
    expect(status.pending.map((m) => m.id)).toEqual([2]);
  });

  it("a current database needs nothing; ids a newer ledger ran are named, not a reason to refuse", () => {
    expect(schemaStatus(three, [1, 2, 3]).pending).toEqual([]);
    const rolledBack = schemaStatus(three, [1, 2, 3, 5, 4]);
    expect(rolledBack).toMatchObject({ version: 5, required: 3, pending: [], unknown: [4, 5] });
    expect(schemaProblem(rolledBack)).toBeUndefined();
  });

  it("a ledger on a database behind refuses with the version, what is pending and the command", () => {
    const problem = schemaProblem(schemaStatus(three, [1]));
    expect(problem).toContain("schema is at version 1, this ledger needs 3");
    expect(problem).toContain("pending: 2 names, 3 backfill");
    expect(problem).toContain("npm run ledger -- migrate");
  });
});
