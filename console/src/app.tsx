// The console's frame: sign-in with an API key (kept in this tab's sessionStorage only), the navigation,
// a banner while a 429 is waited out, and the view of the current place.
import { useEffect, useState } from "preact/hooks";
import { session, whenThrottled, whenUnauthorized } from "./api";
import { hrefOf, usePlace } from "./route";
import { Overview } from "./views/overview";
import { Activity } from "./views/activity";
import { ExecutionView } from "./views/execution";
import { Catalog } from "./views/catalog";
import { Playground } from "./views/playground";
import { Keys } from "./views/keys";

const NAV = [
  ["overview", "Overview"],
  ["activity", "Activity"],
  ["executions", "Execution"],
  ["catalog", "Catalog"],
  ["keys", "Keys and limits"],
] as const;

function SignIn({ onSignedIn, expired }: { onSignedIn: () => void; expired: boolean }) {
  return (
    <main class="signin">
      <h1>Agentic API console</h1>
      {expired && (
        <p class="error" role="alert">
          The API refused the key (401). Sign in again.
        </p>
      )}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          const key = String(new FormData(e.currentTarget).get("apiKey") ?? "").trim();
          if (key) {
            session.signIn(key);
            onSignedIn();
          }
        }}
      >
        <label for="apiKey">API key</label>
        <input id="apiKey" name="apiKey" type="password" autocomplete="off" placeholder="aak_…" required />
        <button type="submit">Sign in</button>
        <p class="muted">The key stays in this tab only and is sent to this gateway's API alone.</p>
      </form>
    </main>
  );
}

export function App() {
  const [signedIn, setSignedIn] = useState(() => session.key() !== null);
  const [expired, setExpired] = useState(false);
  const [throttled, setThrottled] = useState(0);
  const place = usePlace();
  useEffect(() => {
    whenUnauthorized(() => {
      setExpired(true);
      setSignedIn(false);
    });
    whenThrottled(setThrottled);
  }, []);
  if (!signedIn)
    return (
      <SignIn
        expired={expired}
        onSignedIn={() => {
          setExpired(false);
          setSignedIn(true);
        }}
      />
    );

  const [view = "overview", a, b] = place.parts;
  let content;
  if (view === "activity") content = <Activity place={place} />;
  else if (view === "executions") content = <ExecutionView id={a} />;
  else if (view === "catalog") content = <Catalog place={place} />;
  else if (view === "playground" && a && b) content = <Playground domainKey={a} capabilityId={b} />;
  else if (view === "keys") content = <Keys />;
  else content = <Overview />;
  const current = view === "playground" ? "catalog" : view;

  return (
    <>
      <header>
        <a class="brand" href={hrefOf(["overview"])}>
          Agentic API
        </a>
        <nav aria-label="Views">
          {NAV.map(([key, label]) => (
            <a key={key} href={hrefOf([key])} aria-current={current === key ? "page" : undefined}>
              {label}
            </a>
          ))}
        </nav>
        <button
          type="button"
          class="link"
          onClick={() => {
            session.signOut();
            setSignedIn(false);
          }}
        >
          Sign out
        </button>
      </header>
      {throttled > 0 && (
        <p class="warn" role="status">
          The API asked to slow down (429): trying again in {throttled} s.
        </p>
      )}
      <main>{content}</main>
    </>
  );
}
