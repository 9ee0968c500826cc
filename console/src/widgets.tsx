// Small pieces every view shares: an API error with its hint, a loading line, a table of sums.
import type { ApiError } from "./api";
import { credits } from "./format";

export function ErrorNote({ error }: { error: ApiError }) {
  return (
    <div class="error" role="alert">
      <strong>{error.message}</strong> <code>{error.code}</code>
      {error.hint && <p>{error.hint}</p>}
    </div>
  );
}

export const Loading = () => <p aria-busy="true">Loading…</p>;

export function SumTable({ title, rows }: { title: string; rows: Array<{ name: string; credits: number; count: number }> }) {
  return (
    <table class="sums">
      <caption>{title}</caption>
      <thead>
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Calls</th>
          <th scope="col">Credits</th>
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && (
          <tr>
            <td colSpan={3}>Nothing spent.</td>
          </tr>
        )}
        {rows.map((r) => (
          <tr key={r.name}>
            <td>{r.name}</td>
            <td>{r.count}</td>
            <td>{credits(r.credits)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
