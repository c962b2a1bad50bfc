/**
 * Shape checks shared by every door (query text, query parameters, imported
 * records): values nested past a bound would overflow the stack of whatever walks
 * them later (the parser, JSON.stringify, structured clone, the evaluator), so they
 * are refused where they come in, by a walk that does not itself recurse.
 */

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
