// How figures read in the console: credits as the API counts them (1000 credits = 1 USD), times in the viewer's locale.
export const credits = (n: number | undefined): string => `${(n ?? 0).toLocaleString("en-US")} cr`;
export const usd = (n: number | undefined): string => `$${((n ?? 0) / 1000).toFixed(3)}`;
export const when = (iso: string | undefined | null): string => (iso ? new Date(iso).toLocaleString() : "—");
export const ms = (n: number | undefined): string => (n === undefined ? "—" : `${n.toLocaleString("en-US")} ms`);
