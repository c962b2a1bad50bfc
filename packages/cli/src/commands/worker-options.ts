/**
 * What `parley worker` is asked, and the option parsers it shares with `analyze-corpus`: the
 * command parses them, its run (imported only when it runs) reads them.
 */
import { InvalidArgumentError } from 'commander';
import { queueBackendKind } from '@parley/engine/queue/settings.ts';

export interface WorkerOptions {
  queue?: string;
  concurrency?: number;
  rateLimit?: number;
  workers?: number;
}

/** A whole-number option of at least `minimum`, refused as a usage error otherwise. */
export function wholeNumber(minimum: number) {
  return (value: string): number => {
    const number = Number(value);
    if (!Number.isInteger(number) || number < minimum) throw new InvalidArgumentError(`must be a whole number of at least ${minimum}`);
    return number;
  };
}

/** --queue: a redis:// or postgres:// URL, refused as a usage error otherwise. */
export function queueUrl(value: string): string {
  try {
    queueBackendKind(value);
  } catch (error) {
    throw new InvalidArgumentError((error as Error).message);
  }
  return value;
}
