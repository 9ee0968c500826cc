// The MongoDB ledger's schema changes, numbered in the order they run (migration-plan.ts). Run by
// `npm run ledger -- migrate` and the Kubernetes Job ledger-migrate before a rollout (migrate.ts),
// never by a ledger at start: a ledger only checks that the last one here has run. To change the
// schema, append a migration with the next id; never edit or renumber one that has shipped.
import type { MigrationStep } from "./migration-plan";
import type { MongoDb } from "./mongo-db";
import { createWalletValidatorAndIndexes } from "./indexes";
import { normalizeStoredAgentNames } from "./normalize-agent-names";

export type MongoMigration = MigrationStep<MongoDb>;

export const MONGO_MIGRATIONS: readonly MongoMigration[] = [
  { id: 1, name: "wallet validator and indexes", up: createWalletValidatorAndIndexes },
  { id: 2, name: "agent names normalized", up: normalizeStoredAgentNames },
];
