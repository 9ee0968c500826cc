// Reads a RouteTask request: the task (1..2000 characters once trimmed) and the limit (1..20, 0 or
// unset = 5). Problems are INVALID_INPUT naming the field, as the REST body names it.
import type { RouteTaskRequest } from "@agentic/proto/router/v1";
import { InputError } from "@agentic/ranking/domain";

export const TASK_MAX_LENGTH = 2_000;
export const ROUTE_LIMIT_DEFAULT = 5;
export const ROUTE_LIMIT_MAX = 20;

export interface TaskInput {
  task: string;
  limit: number;
}

export function parseTaskInput(req: Pick<RouteTaskRequest, "task" | "limit">): TaskInput {
  const task = (req.task ?? "").trim();
  if (task === "")
    throw new InputError("task", "task is required and must not be empty", 'Send {"task": "<what you want done, in words>"}.');
  if (task.length > TASK_MAX_LENGTH) {
    throw new InputError("task", `task must be at most ${TASK_MAX_LENGTH} characters`, "Describe the task in fewer words.");
  }
  const limit = req.limit || ROUTE_LIMIT_DEFAULT;
  if (!Number.isSafeInteger(limit) || limit < 1 || limit > ROUTE_LIMIT_MAX) {
    throw new InputError(
      "limit",
      `limit must be a whole number from 1 to ${ROUTE_LIMIT_MAX}`,
      `Send limit between 1 and ${ROUTE_LIMIT_MAX}, or leave it out (${ROUTE_LIMIT_DEFAULT}).`,
    );
  }
  return { task, limit };
}
