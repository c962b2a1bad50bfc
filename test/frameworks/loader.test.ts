/**
 * The loader as third parties meet it: modules in directories outside the repo
 * (the PARLEY_FRAMEWORKS_DIR path), the ways a module is refused while the others
 * load, plain rule files and ambiguous predicates, and the framework:new /
 * framework:check round trip as child processes.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EdgeRecord, NodeRecord } from '../../engine/ontology/index.ts';
import { BUILTIN_FRAMEWORKS_DIR, catalogListing, type FrameworkCatalog, type FrameworkEntry, loadRuleModules } from '../../engine/frameworks/loader.ts';
import { runFramework } from '../../engine/frameworks/run.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const temps: string[] = [];

function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `parley-loader-${prefix}-`));
  temps.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

const README = '# Test framework\n\nA framework written by the loader test: it reads red lines and names the actors who state them.\n';

function writeFramework(parent: string, folder: string, files: { manifest?: object; rules: string; readme?: string }): string {
  const dir = path.join(parent, folder);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'manifest.json'), JSON.stringify(files.manifest ?? manifest(folder), null, 2));
  writeFileSync(path.join(dir, 'rules.pl'), files.rules);
  writeFileSync(path.join(dir, 'README.md'), files.readme ?? README);
  return dir;
}

function manifest(id: string, overrides: object = {}): object {
  return {
    id,
    name: `Test framework ${id}`,
    citation: 'Loader test (2024).',
    question: 'Who states red lines?',
    version: '1.0.0',
    reads: { nodes: ['Actor', 'Claim'], edges: ['ASSERTS'] },
    answers: ['negotiation'],
    ...overrides,
  };
}

const EXT_RULES = `% a third-party framework: who states red lines
missing('no claims') :- \\+ claim(_, _).
indicator(hardliners, 1, 'actors stating red lines (RedLine claims)').
present(hardliners, Ids) :- claims_of_type('RedLine', Ids), nonempty(Ids).
finding(hardliner, A, Sentence, Cs, [hardliners]) :-
    claims_by_actor('RedLine', Groups), member(A-Cs, Groups), join([[A], ' states red lines.'], Sentence).
ext_hardliner(A) :- claim_by(A, _, 'RedLine').
ext_shared(X) :- actor(X).
`;

const at = (day: number) => `2024-03-${String(day).padStart(2, '0')}T00:00:00.000Z`;
const node = (id: string, kind: string, properties: NodeRecord['properties']): NodeRecord => ({
  id, labels: [kind], properties, confidence: 0.9, recorded_at: at(1), provenance: [{ source: `doc-${id}`, timestamp: at(1) }],
});
const edge = (id: string, type: string, from: string, to: string): EdgeRecord => ({
  id, type, from, to, properties: {}, confidence: 0.9, recorded_at: at(1), provenance: [{ source: `doc-${id}`, timestamp: at(1) }],
});
const view = {
  graph: GraphIndex.fromRecords(
    [
      node('rsf', 'Actor', { label: 'Rapid Support Forces', role: 'party' }),
      node('saf', 'Actor', { label: 'Sudanese Armed Forces', role: 'party' }),
      node('c1', 'Claim', { type: 'RedLine', text: 'No negotiation while the army holds Khartoum' }),
      node('c2', 'Claim', { type: 'Offer', text: 'Talks in Jeddah' }),
    ],
    [edge('e1', 'ASSERTS', 'rsf', 'c1'), edge('e2', 'ASSERTS', 'saf', 'c2')],
  ),
};

/** The built-in framework folders, as the loader finds them. */
const builtinIds = readdirSync(BUILTIN_FRAMEWORKS_DIR)
  .filter((name) => existsSync(path.join(BUILTIN_FRAMEWORKS_DIR, name, 'manifest.json')))
  .sort();

describe('rule modules from directories outside the repo', () => {
  let dirA: string;
  let dirB: string;
  let catalog: FrameworkCatalog;
  const entry = (dir: string, id: string): FrameworkEntry => {
    const found = catalog.frameworks.find((candidate) => candidate.dir === path.join(dir, id));
    if (!found) throw new Error(`no catalog entry for ${path.join(dir, id)}`);
    return found;
  };
  const problems = (dir: string, id: string) => {
    const found = entry(dir, id);
    expect(found.status).toBe('refused');
    return found.status === 'refused' ? found.problems : [];
  };

  beforeAll(async () => {
    dirA = tempDir('a');
    dirB = tempDir('b');
    writeFramework(dirA, 'ext_demo', { rules: EXT_RULES });
    // a syntax error on line 4
    writeFramework(dirA, 'ext_broken', {
      rules: "missing('never') :- fail.\nindicator(x, 1, 'x').\npresent(x, []).\nfinding(k, v, 'S', [], []) :- member(X, [a, b).\n",
    });
    writeFramework(dirA, 'ext_badanswers', { manifest: manifest('ext_badanswers', { answers: ['weather'] }), rules: EXT_RULES.replace(/ext_/g, 'bad_') });
    writeFramework(dirA, 'ext_wrongid', { manifest: manifest('other_name'), rules: EXT_RULES.replace(/ext_/g, 'wrong_') });
    writeFramework(dirA, 'ext_nofinding', { rules: "indicator(x, 1, 'x').\npresent(x, [c1]).\nnofinding_helper(1).\n" });
    // a plain rule file: a module without a framework; ext_shared/1 is also defined by ext_demo
    writeFileSync(path.join(dirA, 'ext_helpers.pl'), "ext_dove(A) :- claim_by(A, _, 'Offer').\next_shared(X) :- actor(X).\n");
    // a second directory repeating an id of the first, and one of a built-in
    writeFramework(dirB, 'ext_demo', { rules: EXT_RULES.replace(/ext_/g, 'dup_') });
    cpSync(path.join(BUILTIN_FRAMEWORKS_DIR, 'glasl'), path.join(dirB, 'glasl'), { recursive: true });
    catalog = await loadRuleModules([dirA, dirB]);
  });

  it('loads a module from a temp directory beside the built-ins, and every built-in still loads', () => {
    const ext = entry(dirA, 'ext_demo');
    expect(ext).toMatchObject({ status: 'loaded', id: 'ext_demo', builtin: false });
    const builtins = catalog.frameworks.filter((candidate) => candidate.builtin);
    expect(builtins.map((candidate) => candidate.id).sort()).toEqual(builtinIds);
    const refusedBuiltins = builtins.filter((candidate) => candidate.status !== 'loaded');
    expect(refusedBuiltins).toEqual([]);
    expect(catalog.registry.moduleIds()).toEqual(expect.arrayContaining([...builtinIds, 'ext_demo', 'ext_helpers']));
  });

  it("solves the module's predicates over a graph and runs its contract", () => {
    const hardliner = catalog.registry.predicate('ext_hardliner', 1);
    expect(hardliner?.module).toBe('ext_demo');
    expect(hardliner!.holds(["'rsf'"], view, {})).toBe(true);
    expect(hardliner!.holds(["'saf'"], view, {})).toBe(false);
    expect(catalog.registry.solve('ext_demo', 'ext_hardliner(A)', ['A'], view)).toEqual([['rsf']]);

    const ext = entry(dirA, 'ext_demo');
    if (ext.status !== 'loaded') throw new Error('ext_demo did not load');
    const run = runFramework(catalog.registry, ext.manifest, view, { inferenceLimit: 100_000, timeLimitMs: 5_000 });
    expect(run.error).toBeUndefined();
    expect(run.applies).toBe(true);
    expect(run.score).toBe(1);
    expect(run.indicators_present.map((indicator) => indicator.name)).toEqual(['hardliners']);
    expect(run.findings).toEqual([expect.objectContaining({ key: 'hardliner', value: 'rsf', statement: 'Rapid Support Forces states red lines.', evidence: ['c1'] })]);
    expect(run.inferences).toBeGreaterThan(0);
  });

  it('refuses a module with a syntax error with its file, line and reason', () => {
    const [problem, ...rest] = problems(dirA, 'ext_broken');
    expect(rest).toEqual([]);
    expect(problem.file).toBe(path.join(dirA, 'ext_broken', 'rules.pl'));
    expect(problem.line).toBe(4);
    expect(problem.column).toEqual(expect.any(Number));
    expect(problem.reason).toMatch(/syntax error/);
    expect(catalog.registry.module('ext_broken')).toBeUndefined();
  });

  it('refuses a manifest that fails the schema, naming manifest.json and the field', () => {
    const answers = problems(dirA, 'ext_badanswers');
    expect(answers.length).toBeGreaterThan(0);
    for (const problem of answers) expect(problem.file).toBe(path.join(dirA, 'ext_badanswers', 'manifest.json'));
    expect(answers.some((problem) => problem.reason.startsWith('/answers/0'))).toBe(true);

    const [wrongId] = problems(dirA, 'ext_wrongid');
    expect(wrongId.file).toBe(path.join(dirA, 'ext_wrongid', 'manifest.json'));
    expect(wrongId.reason).toMatch(/id 'other_name' must equal the folder name 'ext_wrongid'/);
    expect(catalog.registry.module('ext_badanswers')).toBeUndefined();
    expect(catalog.registry.module('other_name')).toBeUndefined();
  });

  it('refuses rules that do not meet the contract, naming it', () => {
    const [problem] = problems(dirA, 'ext_nofinding');
    expect(problem.file).toBe(path.join(dirA, 'ext_nofinding', 'rules.pl'));
    expect(problem.reason).toMatch(/does not define finding\/5.*The contract/);
    // unloaded again: its helper predicate is not reachable
    expect(catalog.registry.module('ext_nofinding')).toBeUndefined();
    expect(catalog.registry.predicate('nofinding_helper', 1)).toBeUndefined();
  });

  it('refuses an id loaded already from an earlier directory, keeping the first', () => {
    const [duplicate] = problems(dirB, 'ext_demo');
    expect(duplicate.reason).toMatch(/'ext_demo' is loaded already/);
    const [builtinDuplicate] = problems(dirB, 'glasl');
    expect(builtinDuplicate.reason).toMatch(/'glasl' is loaded already/);
    expect(entry(dirA, 'ext_demo').status).toBe('loaded');
    expect(catalog.registry.predicate('dup_hardliner', 1)).toBeUndefined();
    expect(catalog.frameworks.filter((candidate) => candidate.status === 'loaded' && candidate.id === 'glasl')).toHaveLength(1);
  });

  it('loads a plain .pl file as a rule module whose predicates are callable; a predicate two modules define is not', () => {
    const helpers = catalog.ruleFiles.find((file) => file.id === 'ext_helpers');
    expect(helpers).toMatchObject({ status: 'loaded', file: path.join(dirA, 'ext_helpers.pl'), problems: [] });
    expect(helpers!.predicates).toEqual(expect.arrayContaining(['ext_dove/1', 'ext_shared/1']));
    const dove = catalog.registry.predicate('ext_dove', 1);
    expect(dove?.module).toBe('ext_helpers');
    expect(dove!.holds(["'saf'"], view, {})).toBe(true);
    expect(dove!.holds(["'rsf'"], view, {})).toBe(false);

    expect(catalog.registry.predicate('ext_shared', 1)).toBeUndefined();
    expect(catalog.registry.providers('ext_shared', 1).sort()).toEqual(['ext_demo', 'ext_helpers']);
  });

  it('gives the catalog as data that resolves WHERE calls as the registry does (what the server keeps, with no engine)', () => {
    const { callable, frameworks } = catalogListing(catalog);
    expect(frameworks).toBe(catalog.frameworks);
    expect(callable).toMatchObject({ 'ext_dove/1': 'ext_helpers', 'ext_hardliner/1': 'ext_demo', 'actor/1': 'lib' });
    for (const absent of ['ext_shared/1', 'finding/5', 'indicator/3', 'nofinding_helper/1', 'dup_hardliner/1']) expect(callable).not.toHaveProperty([absent]);
    for (const [indicator, module] of Object.entries(callable)) {
      const slash = indicator.lastIndexOf('/');
      expect(catalog.registry.predicate(indicator.slice(0, slash), Number(indicator.slice(slash + 1)))?.module).toBe(module);
    }
  });
});

describe('entries of a rules directory that cannot be read', () => {
  let dir: string;
  let notADir: string;
  let catalog: FrameworkCatalog;

  beforeAll(async () => {
    dir = tempDir('unreadable');
    writeFramework(dir, 'ext_demo', { rules: EXT_RULES });
    // a module folder moved away and a rule file deleted, each leaving its symlink behind
    symlinkSync(path.join(dir, 'moved_away'), path.join(dir, 'ext_gone'));
    symlinkSync(path.join(dir, 'deleted.pl'), path.join(dir, 'ext_gone_rules.pl'));
    // a README that cannot be read as text (a directory: unreadable even to root, unlike a mode-000 file)
    const readmeDir = writeFramework(dir, 'ext_readme_dir', { rules: EXT_RULES.replace(/ext_/g, 'readme_') });
    rmSync(path.join(readmeDir, 'README.md'));
    mkdirSync(path.join(readmeDir, 'README.md'));
    // and a rules "directory" that is a file (PARLEY_FRAMEWORKS_DIR set to the wrong path)
    notADir = path.join(tempDir('file'), 'rules.txt');
    writeFileSync(notADir, 'not a directory\n');
    catalog = await loadRuleModules([dir, notADir]);
  });

  it('refuses each with its file and reason, and every other module still loads', () => {
    const refused = catalog.frameworks.filter((entry) => !entry.builtin && entry.status === 'refused');
    expect(refused.map((entry) => entry.id).sort()).toEqual(['ext_gone', 'ext_readme_dir', 'rules.txt']);
    const problemsOf = (id: string) => {
      const found = refused.find((entry) => entry.id === id);
      return found?.status === 'refused' ? found.problems : [];
    };
    expect(problemsOf('ext_gone')).toEqual([{ file: path.join(dir, 'ext_gone'), reason: expect.stringMatching(/ENOENT/) }]);
    expect(problemsOf('rules.txt')).toEqual([{ file: notADir, reason: expect.stringMatching(/directory cannot be read: ENOTDIR/) }]);
    expect(problemsOf('ext_readme_dir')).toEqual([{ file: path.join(dir, 'ext_readme_dir', 'README.md'), reason: expect.stringMatching(/README\.md cannot be read: .*EISDIR/) }]);
    // refused before its rules were consulted: nothing of it is callable
    expect(catalog.registry.module('ext_readme_dir')).toBeUndefined();
    expect(catalog.registry.predicate('readme_hardliner', 1)).toBeUndefined();

    expect(catalog.ruleFiles).toEqual([
      { status: 'refused', id: 'ext_gone_rules', file: path.join(dir, 'ext_gone_rules.pl'), predicates: [], problems: [{ file: path.join(dir, 'ext_gone_rules.pl'), reason: expect.stringMatching(/ENOENT/) }] },
    ]);

    const loaded = catalog.frameworks.filter((entry) => entry.status === 'loaded').map((entry) => entry.id);
    expect(loaded.sort()).toEqual([...builtinIds, 'ext_demo'].sort());
  });
});

describe('framework:new and framework:check', () => {
  // as package.json runs them (tsx), from the repo root
  const run = (script: 'framework-new' | 'framework-check', args: string[]) =>
    spawnSync(process.execPath, ['--import', 'tsx', `engine/reason/cli/${script}.ts`, ...args], { cwd: REPO_ROOT, encoding: 'utf8' });

  it('scaffolds a module that checks green, and reports a broken rules.pl with its file and line', () => {
    const parent = tempDir('cli');
    const created = run('framework-new', ['round_trip', '--dir', parent]);
    expect(created.stderr).toBe('');
    expect(created.status).toBe(0);
    const dir = path.join(parent, 'round_trip');
    for (const file of ['manifest.json', 'rules.pl', 'README.md']) expect(existsSync(path.join(dir, file))).toBe(true);
    expect(readdirSync(path.join(dir, 'tests'))).toHaveLength(3);
    expect(created.stdout).toContain('framework:check');

    const checked = run('framework-check', [dir]);
    expect(checked.status, checked.stdout + checked.stderr).toBe(0);
    expect(checked.stdout).toMatch(/^3 passed, 0 failed$/m);
    expect(checked.stdout.match(/^ok /gm)).toHaveLength(3);
    expect(checked.stdout).toMatch(/\(\d+ inferences\)/);

    const asJson = run('framework-check', [dir, '--json']);
    expect(asJson.status).toBe(0);
    expect(JSON.parse(asJson.stdout)).toMatchObject({ id: 'round_trip', status: 'loaded', passed: 3, failed: 0, exit_code: 0 });

    // refuses to overwrite, and an id the schema would refuse
    expect(run('framework-new', ['round_trip', '--dir', parent]).status).toBe(1);
    expect(run('framework-new', ['Bad-Id', '--dir', parent]).status).toBe(64);
    expect(existsSync(path.join(parent, 'Bad-Id'))).toBe(false);
    // usage: no dir, a dir that does not exist
    expect(run('framework-check', []).status).toBe(64);
    expect(run('framework-check', [path.join(parent, 'nowhere')]).status).toBe(64);

    const rules = path.join(dir, 'rules.pl');
    const brokenLine = readFileSync(rules, 'utf8').split('\n').length; // the file ends with a newline: the next line
    appendFileSync(rules, 'broken(.\n');
    const broken = run('framework-check', [dir]);
    expect(broken.status).toBe(2);
    expect(broken.stdout).toMatch(new RegExp(`rules\\.pl:${brokenLine}:\\d+: syntax error`));
    expect(broken.stdout).not.toMatch(/passed/);
  }, 180_000); // eight child processes, each loading the Prolog engine

  it('exits 1 and prints the failure when a fixture fails', () => {
    const parent = tempDir('cli-fail');
    expect(run('framework-new', ['failing_fixture', '--dir', parent]).status).toBe(0);
    const fixture = path.join(parent, 'failing_fixture', 'tests', '2-changed-graph.json');
    writeFileSync(fixture, readFileSync(fixture, 'utf8').replace('"value": 2,', '"value": 5,'));
    const checked = run('framework-check', [path.join(parent, 'failing_fixture')]);
    expect(checked.status).toBe(1);
    expect(checked.stdout).toMatch(/^FAIL .*2-changed-graph\.json/m);
    expect(checked.stdout).toMatch(/expected finding \{"key":"demands","value":5/);
    expect(checked.stdout).toMatch(/^2 passed, 1 failed$/m);
  }, 60_000);
});
