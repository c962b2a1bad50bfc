/**
 * Shape checks shared by every door (query text, query parameters, imported
 * records): values nested past a bound would overflow the stack of whatever walks
 * them later (the parser, JSON.stringify, structured clone, the evaluator), so they
 * are refused where they come in, by a walk that does not itself recurse.
 */
import { ValidationError } from './errors.ts';

/** Whether a JSON-like value nests arrays and objects deeper than `limit` (a scalar is depth 0). */
export function nestedDeeperThan(value: unknown, limit: number, countArrays = true): boolean {
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

/** NUL, and UTF-16 surrogates without their pair: no text has them, and LevelDB keys and JSON output break on them. */
const ILL_FORMED = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * Refuses a JSON-like value any of whose strings or member names holds a NUL or an
 * unpaired surrogate, or that has a `__proto__` member (copied by assignment it would
 * replace an object's prototype; fastify's JSON parser refuses it, record-by-record
 * parsing must too); the error names where (`nodes[3].label`).
 */
export function checkStrings(value: unknown, where = ''): void {
  const stack: [unknown, string][] = [[value, where]];
  while (stack.length > 0) {
    const [item, at] = stack.pop()!;
    if (typeof item === 'string') {
      if (ILL_FORMED.test(item)) refuseString(at);
    } else if (Array.isArray(item)) {
      item.forEach((child, i) => stack.push([child, `${at}[${i}]`]));
    } else if (item !== null && typeof item === 'object') {
      for (const [key, child] of Object.entries(item)) {
        const path = at ? `${at}.${key}` : key;
        checkMemberName(key, path);
        stack.push([child, path]);
      }
    }
  }
}

/** A member name as checkStrings checks it: well-formed, and not `__proto__`. */
export function checkMemberName(name: string, path: string): void {
  if (ILL_FORMED.test(name)) refuseString(path);
  if (name === '__proto__') throw new ValidationError('forbidden_member', `${path}: a member may not be named __proto__`, { field: path });
}

function refuseString(at: string): never {
  throw new ValidationError('invalid_string', `${at || 'the body'}: text may not contain NUL characters or unpaired UTF-16 surrogates`, { field: at });
}
