// Asks a yes/no question on the terminal; the answer is no unless it starts with "y".
import { createInterface } from "node:readline/promises";

export async function confirm(question: string, input: NodeJS.ReadStream, output: NodeJS.WriteStream): Promise<boolean> {
  const rl = createInterface({ input, output });
  try {
    const answer = await rl.question(`${question} [y/N] `);
    return /^y(es)?$/i.test(answer.trim());
  } finally {
    rl.close();
  }
}
