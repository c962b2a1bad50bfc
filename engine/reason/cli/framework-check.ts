/**
 * `npm run framework:check <dir> [-- --json]`: validates one framework module and runs
 * its fixture tests (frameworks/README.md, "Testing").
 *
 * Why: an author needs the verdict the server would give, before starting it. The
 * module goes through the server's own path (loadFramework into a fresh
 * RuleRegistry, then runFixtures through the real store), so a module that passes
 * here loads and concludes the same way from PARLEY_FRAMEWORKS_DIR. Problems are
 * printed compiler-style (`file:line:column: reason`) so editors can jump to them.
 *
 * Exit codes: 0 loaded and every fixture passed; 1 a fixture failed; 2 the module was
 * refused (manifest, rules or contract); 64 usage (no dir, or the dir does not exist).
 * `--json` prints one JSON object (the same verdict, exit_code included) instead of text.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadFramework, type ModuleProblem } from '../../frameworks/loader.ts';
import { startProlog } from '../../prolog/bridge.ts';
import { RuleRegistry } from '../../prolog/registry.ts';
import { runFixtures } from '../../frameworks/fixtures.ts';

const USAGE = 'usage: npm run framework:check <dir> [-- --json]   (dir: one framework folder with manifest.json, rules.pl, README.md, tests/)';

function usage(message?: string): never {
  process.stderr.write(`${message ? `${message}\n` : ''}${USAGE}\n`);
  process.exit(64);
}

let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { json: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } } });
} catch (error) {
  usage((error as Error).message);
}
if (parsed.values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const [dirArg, ...extra] = parsed.positionals;
if (dirArg === undefined || extra.length > 0) usage();
const dir = path.resolve(dirArg);
if (!existsSync(dir) || !statSync(dir).isDirectory()) usage(`${dirArg}: no such directory`);
const json = parsed.values.json === true;

const show = (file: string): string => {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
};
const where = (problem: ModuleProblem): string =>
  `${show(problem.file)}${problem.line !== undefined ? `:${problem.line}` : ''}${problem.line !== undefined && problem.column !== undefined ? `:${problem.column}` : ''}`;

await startProlog();
const registry = new RuleRegistry();
const entry = loadFramework(registry, dir, false);
if (entry.status === 'refused') {
  if (json) {
    process.stdout.write(`${JSON.stringify({ dir, id: entry.id, status: 'refused', problems: entry.problems, fixtures: [], passed: 0, failed: 0, exit_code: 2 }, null, 2)}\n`);
  } else {
    for (const problem of entry.problems) process.stdout.write(`${where(problem)}: ${problem.reason}\n`);
    process.stdout.write(`${entry.id}: refused (${entry.problems.length} problem${entry.problems.length === 1 ? '' : 's'}): fix ${entry.problems.length === 1 ? 'it' : 'them'} and check again\n`);
  }
  process.exit(2);
}

const outcomes = await runFixtures(registry, entry.manifest, dir);
const failed = outcomes.filter((outcome) => outcome.failures.length > 0).length;
const passed = outcomes.length - failed;
const exitCode = failed > 0 ? 1 : 0;

if (json) {
  const fixtures = outcomes.map((outcome) => ({
    file: outcome.file,
    description: outcome.description,
    ok: outcome.failures.length === 0,
    failures: outcome.failures,
    inferences: outcome.run?.inferences ?? null,
    applies: outcome.run?.applies ?? null,
    score: outcome.run?.score ?? null,
    findings: outcome.run?.findings.map((finding) => ({ key: finding.key, value: finding.value, evidence: finding.evidence })) ?? [],
  }));
  process.stdout.write(`${JSON.stringify({ dir, id: entry.id, status: 'loaded', problems: [], fixtures, passed, failed, exit_code: exitCode }, null, 2)}\n`);
} else {
  process.stdout.write(`${entry.id}: loaded (${show(path.join(dir, 'rules.pl'))})\n`);
  if (outcomes.length === 0) process.stdout.write(`no fixtures in ${show(path.join(dir, 'tests'))}/ (frameworks/README.md, "Testing": add at least three)\n`);
  for (const outcome of outcomes) {
    const inferences = outcome.run ? `${outcome.run.inferences} inferences` : 'not run';
    process.stdout.write(`${outcome.failures.length === 0 ? 'ok  ' : 'FAIL'} ${show(outcome.file)}: ${outcome.description} (${inferences})\n`);
    for (const failure of outcome.failures) process.stdout.write(`       ${show(outcome.file)}: ${failure}\n`);
  }
  process.stdout.write(`${passed} passed, ${failed} failed\n`);
}
process.exitCode = exitCode;
