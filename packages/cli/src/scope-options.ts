import { type Command, InvalidArgumentError } from 'commander';
import type { Scope } from '@parley/client';

/**
 * The scope options `assess` and `analyze` share: what the frameworks reason over, as the
 * request's `scope` (docs/api.md "Scope"). Actors and places by id, label or alias.
 */
export interface ScopeOptions {
  actor?: string[];
  dyad?: string;
  place?: string[];
  from?: string;
  to?: string;
  conflict?: string;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

function dyadOf(value: string): string {
  if (value.split(',').filter((name) => name.trim()).length !== 2) throw new InvalidArgumentError('names two actors, comma-separated: --dyad "RSF,SAF"');
  return value;
}

export function addScopeOptions(command: Command): Command {
  return command
    .option('--actor <name>', 'reason over this actor and what involves it (id, label or alias; repeatable)', collect)
    .option('--dyad <a,b>', 'reason over what passes between two actors', dyadOf)
    .option('--place <name>', 'reason over the events at this place (a country holds its places; repeatable)', collect)
    .option('--from <date>', 'reason over records dated from this day (YYYY-MM-DD)')
    .option('--to <date>', 'reason over records dated up to this day (YYYY-MM-DD)')
    .option('--conflict <id>', 'reason over one conflict of `parley conflicts <graph>`');
}

/** The request's scope, when an option names one. */
export function scopeOf(options: ScopeOptions): Scope | undefined {
  const scope: Scope = {
    ...(options.actor ? { actors: options.actor } : {}),
    ...(options.dyad ? { dyad: options.dyad.split(',').map((name) => name.trim()) } : {}),
    ...(options.place ? { places: options.place } : {}),
    ...(options.from ? { from: options.from } : {}),
    ...(options.to ? { to: options.to } : {}),
    ...(options.conflict ? { conflict: options.conflict } : {}),
  };
  return Object.keys(scope).length > 0 ? scope : undefined;
}
