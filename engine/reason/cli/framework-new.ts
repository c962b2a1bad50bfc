/**
 * `npm run framework:new <id> [-- --dir <parent>]`: scaffolds a framework module
 * (frameworks/README.md, "Create the folder").
 *
 * Why: a new author should start from a module that already loads and whose
 * fixtures already pass, so that every later red comes from their own edit. The
 * scaffold meets the contract with the smallest rules that do (one missing/1 rule,
 * one indicator with present/2, one finding/5), a manifest that passes the schema
 * with TODO placeholders, an analyst README with glasl's sections, and the three
 * fixtures every built-in has (applies and concludes, a changed graph, not enough
 * evidence). `framework:check` is the command to run next.
 *
 * Exit codes: 0 created; 1 the folder exists already (nothing is overwritten); 64 usage.
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { BUILTIN_FRAMEWORKS_DIR } from '../../frameworks/loader.ts';

/** The manifest schema's id pattern (FrameworkManifestSchema). */
const ID_PATTERN = /^[a-z][a-z0-9_]{1,39}$/;
const USAGE = 'usage: npm run framework:new <id> [-- --dir <parent>]   (id: ^[a-z][a-z0-9_]{1,39}$, the folder name)';

function fail(code: number, message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(code);
}

let parsed;
try {
  parsed = parseArgs({ allowPositionals: true, options: { dir: { type: 'string' }, help: { type: 'boolean', short: 'h' } } });
} catch (error) {
  fail(64, `${(error as Error).message}\n${USAGE}`);
}
if (parsed.values.help) {
  process.stdout.write(`${USAGE}\n`);
  process.exit(0);
}
const [id, ...extra] = parsed.positionals;
if (id === undefined || extra.length > 0) fail(64, USAGE);
if (!ID_PATTERN.test(id)) fail(64, `invalid id '${id}': it must match ^[a-z][a-z0-9_]{1,39}$ (lower case, digits, _)\n${USAGE}`);

const parent = path.resolve(parsed.values.dir ?? BUILTIN_FRAMEWORKS_DIR);
const target = path.join(parent, id);
if (existsSync(target)) fail(1, `${show(target)} exists already: nothing was written (pick another id or remove the folder)`);

const files: Record<string, string> = {
  'manifest.json': `${JSON.stringify(
    {
      id,
      name: `TODO: Author, name of the model (${id})`,
      citation: 'TODO: Author, A. (Year). Title of the work the rules follow. Publisher.',
      question: 'TODO: Which question does this framework answer about a conflict?',
      version: '0.1.0',
      reads: { nodes: ['Actor', 'Claim'], edges: ['ASSERTS'] },
      // a placeholder: pick the questions your framework answers (INTENTS, frameworks/README.md)
      answers: ['negotiation'],
      time_aware: false,
    },
    null,
    2,
  )}\n`,
  'rules.pl': rules(),
  'README.md': readme(id),
  'tests/1-applies-and-concludes.json': fixture({
    description: 'two actors, one of them stating a demand: applies and counts 1 demand (TODO: your own case)',
    graph: graph([claimNode('d1', 'Demand', 'The army must withdraw from the capital', '2024-03-01')], [asserts('rebels', 'd1')]),
    expect: {
      applies: true,
      findings: [{ key: 'demands', value: 1, evidence_includes: ['d1'] }],
      indicators_present: ['demands'],
      min_score: 1,
    },
  }),
  'tests/2-changed-graph.json': fixture({
    description: 'the same actors with two demands and an offer: the finding changes to 2 demands (TODO: your own case)',
    graph: graph(
      [
        claimNode('d1', 'Demand', 'The army must withdraw from the capital', '2024-03-01'),
        claimNode('d2', 'Demand', 'Elections must be held within a year', '2024-03-10'),
        claimNode('o1', 'Offer', 'Talks can start next month', '2024-03-12'),
      ],
      [asserts('rebels', 'd1'), asserts('army', 'd2'), asserts('army', 'o1')],
    ),
    expect: {
      applies: true,
      findings: [{ key: 'demands', value: 2, evidence_includes: ['d1', 'd2'] }],
      absent_findings: [{ key: 'demands', value: 1 }],
      indicators_present: ['demands'],
    },
  }),
  'tests/3-not-enough-evidence.json': fixture({
    description: 'one actor and nothing it said: not enough evidence (TODO: your own case)',
    graph: { nodes: [actorNode('army', 'National Army')], edges: [] },
    expect: { applies: false, missing: ['no claims', 'fewer than two actors'], max_score: 0 },
  }),
};

mkdirSync(path.join(target, 'tests'), { recursive: true });
for (const [name, text] of Object.entries(files)) writeFileSync(path.join(target, name), text, { flag: 'wx' });

const builtin = path.resolve(parent) === path.resolve(BUILTIN_FRAMEWORKS_DIR);
process.stdout.write(
  [
    `created ${show(target)}/ (${builtin ? 'a built-in framework' : 'load it with PARLEY_FRAMEWORKS_DIR'}):`,
    ...Object.keys(files).map((name) => `  ${show(path.join(target, name))}`),
    '',
    'next:',
    `  npm run framework:check ${show(target)}     # loads it and runs its 3 fixtures: they pass as scaffolded`,
    '  edit manifest.json, rules.pl, README.md and tests/ (every TODO); frameworks/README.md explains the contract',
    ...(builtin ? ['  npm test                                  # runs every built-in\'s fixtures'] : [`  PARLEY_FRAMEWORKS_DIR=${show(parent)} npm start   # the server loads it beside the built-ins`]),
    '',
  ].join('\n'),
);

function show(file: string): string {
  const relative = path.relative(process.cwd(), file);
  return relative && !relative.startsWith('..') && !path.isAbsolute(relative) ? relative : file;
}

function fixture(value: object): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

function actorNode(nodeId: string, label: string) {
  return { kind: 'Actor', id: nodeId, label, role: 'party' };
}

function claimNode(nodeId: string, type: string, text: string, timestamp: string) {
  return { kind: 'Claim', id: nodeId, type, text, timestamp };
}

function asserts(from: string, to: string) {
  return { type: 'ASSERTS', from, to };
}

function graph(claims: object[], edges: object[]) {
  return { nodes: [actorNode('army', 'National Army'), actorNode('rebels', 'Liberation Front'), ...claims], edges };
}

function readme(frameworkId: string): string {
  return `# TODO: Author: name of the model (${frameworkId})

<!-- For analysts: what this framework concludes, from which evidence, its limits and
     its literature (frameworks/glasl/README.md is a complete example). Replace every TODO. -->

**Question.** TODO: the question the framework answers about a conflict (the
manifest's \`question\`).

**What it concludes.**
- \`demands\` (a number): TODO, the scaffold's placeholder: how many demands the
  parties state in current evidence (the last 180 days, or undated).

**From which evidence.**

| indicator | what it shows | in the graph |
|---|---|---|
| demands | TODO: demands stated | Demand claims |

The fit score is the weighted share of the indicators present.

**Does not apply** when the graph has no claims, or fewer than two actors (TODO).

**Limits.** TODO: what the rules cannot see in the graph, what they stand in for,
which text cues are English keywords.

**Literature.** TODO: Author, A. (Year). *Title*. Publisher.
`;
}

function rules(): string {
  return String.raw`% TODO: one paragraph on the model these rules follow and how they read it from the graph.
%
% The scaffold meets the contract (frameworks/README.md, "2. The contract") with one
% missing/1 rule, one indicator and one finding, and its three fixtures in tests/ pass:
% replace them with your own rules and keep the fixtures in step
% (npm run framework:check <this folder>).

% ---- applies ------------------------------------------------------------------
% missing(Reason): why the framework does not apply, naming the absent evidence.
% No answer: it applies (frameworks/README.md, "Applies, then concludes").

missing('no claims: TODO say which evidence your framework reads') :-
    \+ claim(_, _).
missing('fewer than two actors: TODO say why your framework needs them') :-
    kind_count('Actor', N), N < 2.

% ---- indicators -----------------------------------------------------------------
% indicator(Name, Weight, Description): every indicator the fit score weighs.
% present(Name, Evidence): it holds, on these node/edge ids ("Fit", "Evidence").
% Work on sets (claims_of_type, current_claims, filter_ids...): "3. Reading the graph".

indicator(demands, 1, 'TODO: demands stated (Demand claims)').

present(demands, Ids) :- current_claims('Demand', Ids), nonempty(Ids).

% ---- findings ---------------------------------------------------------------------
% finding(Key, Value, Sentence, Evidence, Because): a conclusion, the sentence analyze
% answers with, the ids it rests on, and the indicators and rules behind it ("Findings").

finding(demands, N, Sentence, Ids, ['TODO: state the rule that fired, e.g. the count of current Demand claims', demands]) :-
    present(demands, Ids), length(Ids, N),
    join(['TODO: ', N, ' demand(s) stated: ', Ids, '.'], Sentence).
`;
}
