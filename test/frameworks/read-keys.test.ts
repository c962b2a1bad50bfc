/**
 * The property keys the built-in rules read, found a second way: the keys written in the rule files' text
 * (frameworks/<id>/rules.pl and the helper library) must all be among those the view holds once the catalog is
 * loaded (engine/prolog/bridge.ts propertyKeysHeld, read off the consulted clauses by lib/graph.pl
 * parley_read_keys/2). A rule that reads a key the view leaves out fails this test before it reads nothing.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BUILTIN_FRAMEWORKS_DIR, loadRuleModules } from '../../engine/frameworks/loader.ts';
import { propertyKeysHeld } from '../../engine/prolog/bridge.ts';

const LIBRARY_DIR = fileURLToPath(new URL('../../engine/prolog/lib/', import.meta.url));

/** The rule texts: every built-in framework's rules and the helper library (graph.pl, which defines the readers, aside). */
function ruleTexts(): string[] {
  const frameworks = readdirSync(BUILTIN_FRAMEWORKS_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => path.join(BUILTIN_FRAMEWORKS_DIR, entry.name, 'rules.pl'));
  const library = ['conflict.pl', 'argumentation.pl'].map((file) => path.join(LIBRARY_DIR, file));
  return [...frameworks, ...library].map((file) => readFileSync(file, 'utf8').replace(/%.*$/gm, ''));
}

/** Keys written as atoms where a rule reads a property: prop/3, the prop(Key, Value) condition, nodes_where/4, sum_prop/3. */
const KEY_PATTERNS = [
  /\bprop\(\s*[A-Z_]\w*\s*,\s*([a-z]\w*)\s*,/g,
  /\bprop\(\s*([a-z]\w*)\s*,\s*[^,()]+\)/g,
  /\bnodes_where\(\s*[^,()]+,\s*([a-z]\w*)\s*,/g,
  /\bsum_prop\(\s*[^,()]+,\s*([a-z]\w*)\s*,/g,
];

describe('the keys the built-in rules read', () => {
  it('are all held by the view, and the keys no rule reads are not', async () => {
    await loadRuleModules();
    const held = propertyKeysHeld();
    expect(held).not.toBe('all');
    const written = new Set<string>();
    for (const text of ruleTexts()) for (const pattern of KEY_PATTERNS) for (const [, key] of text.matchAll(pattern)) written.add(key);
    expect(written.size).toBeGreaterThan(8);
    expect([...written].filter((key) => !(held as string[]).includes(key))).toEqual([]);
    // what the generated bench graphs carry and no rule reads as a property (valid_time/2 reads them as g_valid)
    expect(held).not.toContain('timestamp');
    expect(held).not.toContain('date');
  });
});
