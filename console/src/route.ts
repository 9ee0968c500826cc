// The console's place as a hash route (#/activity?agentName=x): views and their filters live in the URL, so a
// view can be shared and reloaded, and the static files need no server-side routing.
import { useEffect, useState } from "preact/hooks";

export interface Place {
  /** Path segments after '#/', e.g. ['executions', 'exe_1']. */
  parts: string[];
  query: URLSearchParams;
}

function parse(hash: string): Place {
  const [path = "", search = ""] = hash.replace(/^#\/?/, "").split("?", 2);
  return { parts: path.split("/").filter(Boolean).map(decodeURIComponent), query: new URLSearchParams(search) };
}

/** The link of a place: hrefOf(['executions', id]) or with a query. */
export function hrefOf(parts: string[], query?: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(query ?? {})) if (v) q.set(k, v);
  const search = q.toString();
  return `#/${parts.map(encodeURIComponent).join("/")}${search ? `?${search}` : ""}`;
}

export function go(parts: string[], query?: Record<string, string | undefined>): void {
  location.hash = hrefOf(parts, query);
}

/** The current place, following hash changes. */
export function usePlace(): Place {
  const [place, setPlace] = useState(() => parse(location.hash));
  useEffect(() => {
    const onChange = () => setPlace(parse(location.hash));
    addEventListener("hashchange", onChange);
    return () => removeEventListener("hashchange", onChange);
  }, []);
  return place;
}
