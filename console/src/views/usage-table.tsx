// Usage items as rows; an execution's row links to its Execution view.
import type { UsageItem } from "../types";
import { credits, ms, when } from "../format";
import { hrefOf } from "../route";

export function UsageTable({ items, caption }: { items: UsageItem[]; caption: string }) {
  if (items.length === 0) return <p>No usage yet.</p>;
  return (
    <div class="scroll">
      <table data-testid="usage-rows">
        <caption class="sr-only">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">When</th>
            <th scope="col">Kind</th>
            <th scope="col">Capability / reason</th>
            <th scope="col">Route</th>
            <th scope="col">Agent</th>
            <th scope="col">Status</th>
            <th scope="col">Took</th>
            <th scope="col">Credits</th>
          </tr>
        </thead>
        <tbody>
          {items.map((u) => {
            const executionId = u.decision?.executionId;
            return (
              <tr key={u.id} data-id={u.id}>
                <td>{when(u.createdAt)}</td>
                <td>{u.kind}</td>
                <td>{u.kind === "charge" ? u.capabilityKey : (u.reason ?? "")}</td>
                <td>{u.routeKey ?? ""}</td>
                <td>{u.agentName ?? ""}</td>
                <td>
                  {executionId ? <a href={hrefOf(["executions", executionId])}>{u.status ?? "open"}</a> : (u.status ?? "")}
                  {u.errorCode ? ` (${u.errorCode})` : ""}
                </td>
                <td>{u.kind === "charge" ? ms(u.durationMs) : ""}</td>
                <td class="num">{u.kind === "charge" ? credits(u.creditsCharged) : `+${credits(u.amountCredits)}`}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
