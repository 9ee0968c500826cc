// @agentic/executor/testing: the executor's test systems for other workspaces' tests (declare
// "@agentic/executor": "*" as a devDependency), and the few names of the executor they assert on.
export * from "./harness";
export * from "./system";
export { REPLAY_NOTE } from "../src/domain/idempotency";
