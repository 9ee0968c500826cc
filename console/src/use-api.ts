// Loads one API answer for a view (one request per page view), again when its path changes, and
// optionally every `refreshMs` (never more often than every 5 s) while the tab is visible.
import { useEffect, useState } from "preact/hooks";
import { api, ApiError, type ApiAnswer } from "./api";

export const MIN_REFRESH_MS = 5_000;

export interface Loaded<T> {
  answer?: ApiAnswer<T>;
  error?: ApiError;
  loading: boolean;
}

export function useApi<T>(path: string | null, refreshMs?: number): Loaded<T> {
  const [state, setState] = useState<Loaded<T>>({ loading: path !== null });
  useEffect(() => {
    if (path === null) return;
    let live = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const answer = await api<T>(path);
        if (live) setState({ answer, loading: false });
      } catch (err) {
        if (live) setState({ error: err instanceof ApiError ? err : new ApiError(0, "CONSOLE", String(err), ""), loading: false });
      }
      if (live && refreshMs !== undefined) timer = setTimeout(tick, Math.max(MIN_REFRESH_MS, refreshMs));
    };
    const tick = () => (document.visibilityState === "visible" ? void load() : (timer = setTimeout(tick, MIN_REFRESH_MS)));
    setState({ loading: true });
    void load();
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [path, refreshMs]);
  return state;
}
