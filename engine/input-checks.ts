/// <reference lib="es2024.string" />
/**
 * Input checks shared by every door (query text, query parameters, imported
 * records): values nested past a bound would overflow the stack of whatever walks
 * them later (the parser, JSON.stringify, structured clone, the evaluator), so they
 * are refused where they come in, by a walk that does not itself recurse.
 */
import { ValidationError } from './errors.ts';

/** Whether a JSON-like value nests arrays and objects deeper than `limit` (a scalar is depth 0). */
export function nestedDeeperThan(value: unknown, limit: number, countArrays = true): boolean {
  if (value === null || typeof value !== 'object') return false;
  // most values checked hold scalars only (a list of aliases, a span): answered without the walk's arrays
  if (!holdsObject(value)) return (Array.isArray(value) && !countArrays ? 0 : 1) > limit;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    const inner = Array.isArray(item) && !countArrays ? depth : depth + 1;
    if (inner > limit) return true;
    for (const child of Array.isArray(item) ? item : Object.values(item)) {
      if (child !== null && typeof child === 'object') stack.push([child, inner]);
    }
  }
  return false;
}

/** Whether a list or map holds a list or map. */
function holdsObject(value: object): boolean {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) if (value[i] !== null && typeof value[i] === 'object') return true;
    return false;
  }
  for (const key in value) {
    const child = (value as Record<string, unknown>)[key];
    if (child !== null && typeof child === 'object') return true;
  }
  return false;
}

/** NUL, and UTF-16 surrogates without their pair: no text has them, and LevelDB keys and JSON output break on them. */
function wellFormed(text: string): boolean {
  return text.isWellFormed() && !text.includes('\u0000');
}

/** A place in a value being walked: its parent's place and its key there, so a path is spelled only for an error. */
interface Place {
  item: unknown;
  parent?: Place;
  key?: string | number;
}

function pathOf(place: Place | undefined, where: string): string {
  const keys: (string | number)[] = [];
  for (let at = place; at?.parent; at = at.parent) keys.push(at.key!);
  let path = where;
  for (let i = keys.length - 1; i >= 0; i--) path = typeof keys[i] === 'number' ? `${path}[${keys[i]}]` : path ? `${path}.${keys[i]}` : `${keys[i]}`;
  return path;
}

/**
 * Refuses a JSON-like value any of whose strings or member names holds a NUL or an
 * unpaired surrogate, or that has a `__proto__` member (copied by assignment it would
 * replace an object's prototype; fastify's JSON parser refuses it, record-by-record
 * parsing must too); the error names where (`nodes[3].label`).
 */
export function checkStrings(value: unknown, where = ''): void {
  const stack: Place[] = [{ item: value }];
  while (stack.length > 0) {
    const place = stack.pop()!;
    const item = place.item;
    if (typeof item === 'string') {
      if (!wellFormed(item)) refuseString(pathOf(place, where));
    } else if (Array.isArray(item)) {
      for (let i = 0; i < item.length; i++) stack.push({ item: item[i], parent: place, key: i });
    } else if (item !== null && typeof item === 'object') {
      for (const key of Object.keys(item)) {
        if (!wellFormed(key) || key === '__proto__') checkMemberName(key, pathOf({ item: undefined, parent: place, key }, where));
        stack.push({ item: (item as Record<string, unknown>)[key], parent: place, key });
      }
    }
  }
}

/** A member name as checkStrings checks it: well-formed, and not `__proto__`. */
export function checkMemberName(name: string, path: string): void {
  if (!wellFormed(name)) refuseString(path);
  if (name === '__proto__') throw new ValidationError('forbidden_member', `${path}: a member may not be named __proto__`, { field: path });
}

function refuseString(at: string): never {
  throw new ValidationError('invalid_string', `${at || 'the body'}: text may not contain NUL characters or unpaired UTF-16 surrogates`, { field: at });
}
