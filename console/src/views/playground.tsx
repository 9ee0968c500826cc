// Playground of one capability: its contract as a form (GET …/contract), recommend (free) with the ranked routes,
// prices and blocks, and execute after a confirmation naming the price. The Idempotency-Key is made once per
// confirmation, so a second click (or a retry) replays the first execution instead of paying again.
import { useRef, useState } from "preact/hooks";
import { api, ApiError } from "../api";
import { useApi } from "../use-api";
import type { Candidate, Contract, Recommendation } from "../types";
import { credits } from "../format";
import { hrefOf } from "../route";
import { ErrorNote, Loading } from "../widgets";
import { bodyOf, ContractForm, PLAYGROUND_FIELDS } from "./contract-form";

interface Executed {
  executionId: string | null;
  replayed: boolean;
  body: { creditsCharged?: number; routeKey?: string; status?: string };
}

export function Playground({ domainKey, capabilityId }: { domainKey: string; capabilityId: string }) {
  const base = `/domains/${encodeURIComponent(domainKey)}/capabilities/${encodeURIComponent(capabilityId)}`;
  const contract = useApi<Contract>(`${base}/contract`);
  const form = useRef<HTMLFormElement>(null);
  const [rec, setRec] = useState<Recommendation>();
  const [error, setError] = useState<ApiError>();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<{
    price: number;
    route: Candidate;
    idempotencyKey: string;
    body: Record<string, unknown>;
  }>();
  const [executed, setExecuted] = useState<Executed>();
  // Set synchronously, so a second click before the re-render disables the button is ignored too.
  const inFlight = useRef(false);
  const fields = (contract.answer?.body.execute?.fields ?? []).filter((f) => !PLAYGROUND_FIELDS.has(f.name));

  const fail = (err: unknown) => setError(err instanceof ApiError ? err : new ApiError(0, "CONSOLE", String(err), ""));

  const recommend = async () => {
    setError(undefined);
    setExecuted(undefined);
    setConfirming(undefined);
    setBusy(true);
    try {
      setRec((await api<Recommendation>(`${base}/recommend`, { method: "POST", body: "{}" })).body);
    } catch (err) {
      fail(err);
    } finally {
      setBusy(false);
    }
  };

  const best = rec?.candidates.find((c) => c.routeKey === rec.bestExecutableRouteKey);

  /**
   * Confirms the price of the route that will run: the pinned one (routeKey or provider) or the recommendation's
   * best executable one. The body caps the price at it (maxPriceCredits), so no route dearer than shown is tried.
   */
  const askToExecute = () => {
    setError(undefined);
    if (!form.current || !rec || !best) return;
    if (!form.current.reportValidity()) return;
    let body: Record<string, unknown>;
    try {
      body = bodyOf(form.current, fields);
    } catch {
      setError(new ApiError(0, "CONSOLE", "A JSON field does not parse.", 'Write objects as JSON, e.g. {"a": 1}.'));
      return;
    }
    const pinned = typeof body.routeKey === "string" || typeof body.provider === "string";
    const route = pinned
      ? rec.candidates.find((c) => (body.routeKey ? c.routeKey === body.routeKey : c.provider === body.provider) && c.canExecuteNow)
      : best;
    if (!route || route.priceCredits === undefined) {
      setError(
        new ApiError(
          0,
          "CONSOLE",
          "The pinned route cannot run now.",
          "Pick a route the recommendation marks executable, or clear the pin.",
        ),
      );
      return;
    }
    const price = route.priceCredits;
    const cap = typeof body.maxPriceCredits === "number" ? Math.min(body.maxPriceCredits, price) : price;
    setConfirming({
      price,
      route,
      idempotencyKey: `console-${crypto.randomUUID()}`,
      body: { ...body, maxPriceCredits: cap, ...(pinned ? {} : { recommendationId: rec.recommendationId }) },
    });
  };

  const execute = async () => {
    if (!confirming || inFlight.current) return;
    inFlight.current = true;
    setBusy(true);
    try {
      const { body, headers } = await api<Executed["body"]>(`${base}/execute`, {
        method: "POST",
        headers: { "idempotency-key": confirming.idempotencyKey },
        body: JSON.stringify(confirming.body),
      });
      setExecuted({ executionId: headers.get("execution-id"), replayed: headers.get("idempotent-replayed") === "true", body });
    } catch (err) {
      fail(err);
    } finally {
      inFlight.current = false;
      setBusy(false);
    }
  };

  return (
    <section aria-labelledby="playground-title">
      <h1 id="playground-title">
        Playground: {domainKey}.{capabilityId}
      </h1>
      <p>
        <a href={hrefOf(["catalog", domainKey])}>Back to {domainKey}</a>
      </p>
      {contract.error && <ErrorNote error={contract.error} />}
      {contract.loading && <Loading />}
      {contract.answer && (
        <form ref={form} onSubmit={(e) => e.preventDefault()}>
          <ContractForm fields={fields} example={contract.answer.body.execute?.requestExample} />
          <div class="actions">
            <button type="button" onClick={recommend} disabled={busy}>
              Recommend (free)
            </button>
            <button type="button" onClick={askToExecute} disabled={busy || !best}>
              Execute…
            </button>
          </div>
        </form>
      )}
      {error && <ErrorNote error={error} />}
      {confirming && !executed && (
        <div class="confirm" role="dialog" aria-labelledby="confirm-title">
          <h2 id="confirm-title">Pay {credits(confirming.price)}?</h2>
          <p>
            Runs on <code>{confirming.route.routeKey}</code> and charges <strong data-testid="confirm-price">{confirming.price}</strong>{" "}
            credits if it succeeds there; nothing dearer is ever tried (maxPriceCredits {confirming.body.maxPriceCredits as number}).
          </p>
          <button type="button" onClick={execute} disabled={busy}>
            Pay {confirming.price} credits and execute
          </button>{" "}
          <button type="button" onClick={() => setConfirming(undefined)} disabled={busy}>
            Cancel
          </button>
        </div>
      )}
      {executed && (
        <div class="ok" role="status">
          <p>
            Done: {executed.body.status ?? "ok"} on {executed.body.routeKey}, charged{" "}
            <strong data-testid="charged">{executed.body.creditsCharged}</strong> credits{executed.replayed ? " (replayed)" : ""}.
          </p>
          {executed.executionId && <a href={hrefOf(["executions", executed.executionId])}>See execution {executed.executionId}</a>}
        </div>
      )}
      {rec && (
        <>
          <h2>Routes, best first</h2>
          <div class="scroll">
            <table data-testid="candidates">
              <caption class="sr-only">Ranked routes</caption>
              <thead>
                <tr>
                  <th scope="col">Route</th>
                  <th scope="col">Score</th>
                  <th scope="col">Price</th>
                  <th scope="col">Now</th>
                  <th scope="col">Blocks and reasons</th>
                </tr>
              </thead>
              <tbody>
                {rec.candidates.map((c) => (
                  <tr key={c.routeKey}>
                    <td>{c.routeKey}</td>
                    <td>{c.score?.toFixed(2) ?? ""}</td>
                    <td class="num">{credits(c.priceCredits)}</td>
                    <td>{c.canExecuteNow ? "yes" : (c.unavailableReasonCode ?? "no")}</td>
                    <td>{[...(c.blockingRequirements ?? []), ...(c.reasons ?? [])].join(" ")}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
