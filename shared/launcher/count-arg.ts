// A numeric command-line option (`--trials 2`), parsed for commander: a
// value that is not a number is refused with commander's own error.
import { InvalidArgumentError } from 'commander';

/** commander's parser for --trials and --k: any finite number (floored and clamped to 1-3 later, as the route does). */
export function parseCountArg(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError('must be a number');
  return n;
}
