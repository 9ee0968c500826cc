// Keys and limits: the calling key's request limits (the RateLimit headers of its own GET /wallet) and the spend
// policies of the key and of its agents.
import { useApi } from "../use-api";
import type { Wallet } from "../types";
import { ErrorNote, Loading } from "../widgets";
import { PolicyTable } from "./policies";

const LIMIT_HEADERS = [
  "ratelimit-limit",
  "ratelimit-remaining",
  "ratelimit-reset",
  "ratelimit-policy",
  "x-ratelimit-limit",
  "x-ratelimit-remaining",
];

export function Keys() {
  const wallet = useApi<Wallet>("/wallet");
  const limits = wallet.answer ? LIMIT_HEADERS.map((h) => [h, wallet.answer!.headers.get(h)] as const).filter(([, v]) => v !== null) : [];
  return (
    <section aria-labelledby="keys-title">
      <h1 id="keys-title">Keys and limits</h1>
      {wallet.error && <ErrorNote error={wallet.error} />}
      {wallet.loading && <Loading />}
      {wallet.answer && (
        <>
          <p>
            Signed in as user <code data-testid="user-id">{wallet.answer.body.userId}</code>.
          </p>
          <h2>Request limits of this key</h2>
          {limits.length === 0 ? (
            <p>This key's answers carry no request-limit headers.</p>
          ) : (
            <dl class="facts">
              {limits.map(([name, value]) => (
                <>
                  <dt>{name}</dt>
                  <dd>{value}</dd>
                </>
              ))}
            </dl>
          )}
          <h2>Spend policies of this key and its agents</h2>
          <PolicyTable policies={wallet.answer.body.spendPolicies} />
        </>
      )}
    </section>
  );
}
