// Spend policies as GET /wallet gives them: the budget, what its period spent and holds, what is left, when it resets.
import type { SpendPolicy } from "../types";
import { credits, when } from "../format";

export function PolicyTable({ policies }: { policies: SpendPolicy[] }) {
  if (policies.length === 0) return <p>No spend policy applies to this key: only the balance limits it.</p>;
  return (
    <div class="scroll">
      <table>
        <caption class="sr-only">Spend policies</caption>
        <thead>
          <tr>
            <th scope="col">Applies to</th>
            <th scope="col">Budget</th>
            <th scope="col">Spent</th>
            <th scope="col">Held</th>
            <th scope="col">Left</th>
            <th scope="col">Max price</th>
            <th scope="col">Resets</th>
          </tr>
        </thead>
        <tbody>
          {policies.map((p, i) => (
            <tr key={i}>
              <td>
                key {p.keyId}
                {p.agentName ? `, agent ${p.agentName}` : p.otherAgents ? ", other agents" : ""}
                {p.capabilityCaps.map((c) => (
                  <div key={c.capabilityKey} class="muted">
                    {c.capabilityKey}: {c.count}
                    {c.maxCount !== undefined ? `/${c.maxCount}` : ""} calls, {credits(c.spentCredits)}
                    {c.maxCredits !== undefined ? ` of ${credits(c.maxCredits)}` : ""}
                  </div>
                ))}
              </td>
              <td>{p.budgetCredits !== undefined ? credits(p.budgetCredits) : "none"}</td>
              <td>{credits(p.spentCredits)}</td>
              <td>{credits(p.heldCredits)}</td>
              <td data-testid="policy-left">{p.remainingCredits !== undefined ? credits(p.remainingCredits) : "—"}</td>
              <td>{p.maxPriceCredits !== undefined ? credits(p.maxPriceCredits) : "—"}</td>
              <td>{p.reset === "none" ? "never" : `${p.reset}, ${when(p.resetsAt)}`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
