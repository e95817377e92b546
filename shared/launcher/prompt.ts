// The y/N question of the restart offer. Asked only on an interactive
// terminal; without one (CI, pipes) the caller never blocks on stdin.
import { createInterface } from 'node:readline/promises';

export function isInteractive(): boolean {
  return Boolean(process.stdin.isTTY && process.stdout.isTTY);
}

/** Anything but y/yes is "no", the safe default. */
export function isYes(answer: string): boolean {
  return /^\s*y(es)?\s*$/i.test(answer);
}

export async function askYesNo(question: string): Promise<boolean> {
  const rl = createInterface({ input: process.stdin, output: process.stdout });
  try {
    return isYes(await rl.question(`${question} [y/N] `));
  } finally {
    rl.close();
  }
}
