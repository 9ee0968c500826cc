// Saves GET /usage/export's CSV: the answer streams in and is handed to the browser as one file download.
import { send } from "./api";

/** Downloads `path` as usage.csv, reporting the rows received so far. */
export async function exportCsv(path: string, progress: (rows: number) => void): Promise<void> {
  const res = await send(path);
  const reader = res.body!.getReader();
  const chunks: Uint8Array[] = [];
  let rows = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    for (const byte of value) if (byte === 10) rows++;
    progress(Math.max(0, rows - 1));
  }
  const url = URL.createObjectURL(new Blob(chunks as BlobPart[], { type: "text/csv" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = "usage.csv";
  link.click();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
