// Execution: GET /executions/{id}: each attempt as a bar of a waterfall (route, latency, outcome, whether the
// vendor may have acted), the holds with what each held and charged, the charge; an indeterminate one says so.
import { useApi, MIN_REFRESH_MS } from "../use-api";
import type { Execution } from "../types";
import { credits, ms, when } from "../format";
import { go } from "../route";
import { ErrorNote, Loading } from "../widgets";

const STILL_MOVING = new Set(["claimed", "running", "indeterminate"]);

export function ExecutionView({ id }: { id: string | undefined }) {
  const open = (e: Event) => {
    e.preventDefault();
    const value = String(new FormData(e.currentTarget as HTMLFormElement).get("executionId") ?? "").trim();
    if (value) go(["executions", value]);
  };
  return (
    <section aria-labelledby="execution-title">
      <h1 id="execution-title">Execution</h1>
      <form class="filters" onSubmit={open}>
        <label>
          Execution id <input name="executionId" placeholder="exe_…" value={id ?? ""} />
        </label>
        <button type="submit">Open</button>
      </form>
      {id ? <ExecutionDetail id={id} /> : <p>Paste the Execution-Id header of an execute answer.</p>}
    </section>
  );
}

function ExecutionDetail({ id }: { id: string }) {
  const first = useApi<{ execution: Execution }>(`/executions/${encodeURIComponent(id)}`, MIN_REFRESH_MS);
  if (first.error) return <ErrorNote error={first.error} />;
  if (!first.answer) return <Loading />;
  const x = first.answer.body.execution;
  const attempts = x.result?.body.decision?.attempts ?? [];
  const total = Math.max(
    1,
    attempts.reduce((sum, a) => sum + (a.latencyMs ?? 0), 0),
  );
  let offset = 0;
  return (
    <div>
      <dl class="facts">
        <dt>State</dt>
        <dd data-testid="execution-state">{x.state}</dd>
        <dt>Capability</dt>
        <dd>{x.capabilityKey}</dd>
        <dt>Charged</dt>
        <dd data-testid="execution-charged">{credits(x.creditsCharged)}</dd>
        <dt>Started</dt>
        <dd>{when(x.createdAt)}</dd>
        <dt>Ended</dt>
        <dd>{when(x.completedAt)}</dd>
        {x.idempotencyKey && (
          <>
            <dt>Idempotency-Key</dt>
            <dd>{x.idempotencyKey}</dd>
          </>
        )}
      </dl>
      {x.indeterminate && (
        <div class="warn" role="status">
          This execution is indeterminate: the provider may have been reached and its outcome is being reconciled. It will not be run again
          and its hold stays until the reconciliation charges or releases it.
        </div>
      )}
      {STILL_MOVING.has(x.state) && !x.indeterminate && <p role="status">Still running; this view reads it again every 5 s.</p>}
      <h2>Decision</h2>
      {attempts.length === 0 ? (
        <p>No provider attempt is recorded in the answer.</p>
      ) : (
        <ol class="waterfall" data-testid="attempts">
          {attempts.map((a, i) => {
            const left = (offset / total) * 100;
            const width = Math.max(2, ((a.latencyMs ?? 0) / total) * 100);
            offset += a.latencyMs ?? 0;
            return (
              <li key={i} class={`attempt outcome-${a.outcome}`}>
                <span class="label">
                  {i + 1}. {a.routeKey} — {a.outcome}, {ms(a.latencyMs)}
                  {a.vendorMayHaveActed ? ", the vendor may have acted" : ""}
                  {a.errorCode ? ` (${a.errorCode})` : ""}
                </span>
                <span class="track" aria-hidden="true">
                  <span class="bar" style={{ marginLeft: `${left}%`, width: `${width}%` }} />
                </span>
              </li>
            );
          })}
        </ol>
      )}
      <h2>Holds and charge</h2>
      <div class="scroll">
        <table>
          <caption class="sr-only">Holds of this execution</caption>
          <thead>
            <tr>
              <th scope="col">Route</th>
              <th scope="col">Held</th>
              <th scope="col">State</th>
              <th scope="col">Charged</th>
              <th scope="col">Settled</th>
            </tr>
          </thead>
          <tbody>
            {x.attempts.map((h) => (
              <tr key={h.holdId}>
                <td>{h.routeKey}</td>
                <td>{credits(h.heldCredits)}</td>
                <td>{h.state}</td>
                <td>{credits(h.chargedCredits)}</td>
                <td>{when(h.settledAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {x.result && x.result.httpStatus !== 200 && (
        <p>
          Answered {x.result.httpStatus} {x.result.body.code}: {x.result.body.hint}
        </p>
      )}
    </div>
  );
}
