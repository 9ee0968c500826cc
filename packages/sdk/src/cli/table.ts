// Plain-text tables for people: columns padded to their widest cell, long cells cut with "…".

const MAX_CELL = 60;

const cut = (text: string) => (text.length > MAX_CELL ? `${text.slice(0, MAX_CELL - 1)}…` : text);

/** Renders `rows` under `headers`; undefined and null cells print as "-". */
export function table(headers: string[], rows: Array<Array<string | number | boolean | undefined | null>>): string {
  const cells = rows.map((row) => row.map((cell) => cut(cell === undefined || cell === null || cell === "" ? "-" : String(cell))));
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((row) => row[i]?.length ?? 0)));
  const line = (row: string[]) =>
    row
      .map((cell, i) => cell.padEnd(widths[i]!))
      .join("  ")
      .trimEnd();
  return [line(headers), ...cells.map(line)].join("\n");
}

/** Credits with their USD value (1000 credits = 1 USD). */
export function credits(amount: number | undefined): string {
  if (amount === undefined) return "-";
  return `${amount} credits (${(amount / 1000).toFixed(3)} USD)`;
}
