// Which of the MongoDB ledger's numbered migrations a database still needs, decided from the list and
// the ids its `ledger_migrations` collection records as run. Pure: the runner (migrate.ts) and the
// ledger's start-up check (mongo-store.ts) both ask here.

/** One versioned change of the MongoDB ledger's schema (indexes, validators, rewritten documents). */
export interface MigrationStep<Db> {
  /** 1, 2, 3, ... in the order they run; never renumbered once shipped. */
  readonly id: number;
  /** What it does, as the record and the command's output name it. */
  readonly name: string;
  /** Idempotent: a run cut off half-way is run again whole. */
  up(db: Db): Promise<void>;
}

export interface SchemaStatus {
  /** The highest id run with every id below it run too (0: none). */
  version: number;
  /** The version this code needs: the last migration's id. */
  required: number;
  /** The migrations still to run, in order. */
  pending: { id: number; name: string }[];
  /** Ids recorded as run that this code does not know: a newer ledger migrated this database. */
  unknown: number[];
}

/** Throws unless ids run 1, 2, 3, ... with no gap or repeat: the order is the ids'. */
export function checkMigrationList(list: readonly MigrationStep<unknown>[]): void {
  list.forEach((m, i) => {
    if (m.id !== i + 1) throw new Error(`migration ${i + 1} is numbered ${m.id}: ids run 1, 2, 3, ... in list order`);
  });
}

/** Where a database stands against `list`, from the ids it records as run. */
export function schemaStatus(list: readonly MigrationStep<unknown>[], applied: readonly number[]): SchemaStatus {
  checkMigrationList(list);
  const ran = new Set(applied);
  const known = new Set(list.map((m) => m.id));
  let version = 0;
  while (ran.has(version + 1)) version++;
  return {
    version,
    required: list.length,
    pending: list.filter((m) => !ran.has(m.id)).map(({ id, name }) => ({ id, name })),
    unknown: [...ran].filter((id) => !known.has(id)).sort((a, b) => a - b),
  };
}

/** Why a ledger may not start on this database (undefined: it may). Names the command that fixes it. */
export function schemaProblem(status: SchemaStatus): string | undefined {
  if (status.pending.length) {
    const names = status.pending.map((m) => `${m.id} ${m.name}`).join(", ");
    return (
      `MongoDB ledger schema is at version ${status.version}, this ledger needs ${status.required} (pending: ${names}). ` +
      `Run the migrations first: npm run ledger -- migrate (in Kubernetes, Job ledger-migrate; docs/mongodb-runbook.md)`
    );
  }
  return undefined;
}
