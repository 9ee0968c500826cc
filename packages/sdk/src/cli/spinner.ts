// A one-line spinner on a terminal while a call runs; on anything else (a pipe, a file, CI) nothing
// is drawn, so captured output stays clean.
import type { WriteStream } from "node:tty";

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

/** Runs `work` with `label` spinning on `stream` when it is a TTY. */
export async function withSpinner<T>(stream: NodeJS.WriteStream, label: string, work: () => Promise<T>): Promise<T> {
  if (!(stream as WriteStream).isTTY) return work();
  let frame = 0;
  const draw = () => stream.write(`\r${FRAMES[frame++ % FRAMES.length]} ${label}`);
  draw();
  const timer = setInterval(draw, 80);
  try {
    return await work();
  } finally {
    clearInterval(timer);
    stream.write("\r\x1b[2K");
  }
}
