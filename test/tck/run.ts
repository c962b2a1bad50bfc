/**
 * Conformance runner: runs the openCypher TCK scenarios of the MATCH,
 * MATCH-WHERE, RETURN, RETURN-ORDERBY, RETURN-SKIP-LIMIT and aggregation
 * feature files against parley's query engine.
 *
 *   npm run test:tck                          run everything, check against the expected failures
 *   npm run test:tck -- --filter <substring>  run the scenarios whose id contains <substring>, with full diffs
 *   npm run test:tck -- --update-expected     rewrite test/tck/expected-failures.txt from the current failures
 *
 * The feature files are read from ../shared/tck/tck/features (beside the
 * project) or from PARLEY_TCK_DIR; they are never copied into the project.
 *
 * test/tck/expected-failures.txt lists the ids of scenarios known to fail.
 * The run fails when a scenario outside the list fails, when a listed
 * scenario passes (take it off the list: the list only shrinks), or when a
 * listed id is no scenario of the covered files. Maintainers regenerate the
 * list with --update-expected after the engine changes, and review the diff.
 *
 * Scenarios run in a child process (worker.ts); one that outlives
 * SCENARIO_TIME_LIMIT_MS is killed and counted as failed.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FEATURE_FOLDERS, featuresDirectory, loadScenarios, missingFolders, type LoadedScenario } from './features.ts';
import type { WorkerReport, WorkerRequest } from './worker.ts';

/** A scenario's wall-clock limit, set-up included; the engine's own query limit (engine-adapter.ts) is lower. */
const SCENARIO_TIME_LIMIT_MS = 20_000;

const EXPECTED_FAILURES_FILE = fileURLToPath(new URL('./expected-failures.txt', import.meta.url));
const WORKER_FILE = fileURLToPath(new URL('./worker.ts', import.meta.url));

const EXPECTED_FAILURES_HEADER = `# openCypher TCK scenarios that parley's query engine is known to fail, one scenario id a line.
# npm run test:tck fails when a scenario not listed here fails, or when a listed one passes:
# the list only shrinks. After changing the engine, regenerate it with
#   npm run test:tck -- --update-expected
# and review the diff (every line removed is a scenario that now passes).
`;

interface Options {
  filter?: string;
  updateExpected: boolean;
}

interface Result {
  scenario: LoadedScenario;
  passed: boolean;
  category?: string;
  reason?: string;
}

function parseArguments(args: string[]): Options {
  const options: Options = { updateExpected: false };
  for (let i = 0; i < args.length; i++) {
    if (args[i] === '--update-expected') options.updateExpected = true;
    else if (args[i] === '--filter' && i + 1 < args.length) options.filter = args[++i];
    else throw new Error(`unknown argument ${args[i]}; use --filter <substring> or --update-expected`);
  }
  if (options.updateExpected && options.filter !== undefined) throw new Error('--update-expected rewrites the whole list: do not combine it with --filter');
  return options;
}

function readExpectedFailures(): Set<string> {
  if (!existsSync(EXPECTED_FAILURES_FILE)) return new Set();
  return new Set(
    readFileSync(EXPECTED_FAILURES_FILE, 'utf8')
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  );
}

/** Runs the scenarios in a child process, restarting it after a scenario is killed for time or crashes it. */
async function runScenarios(root: string, scenarios: LoadedScenario[], onResult: (result: Result) => void): Promise<void> {
  const byId = new Map(scenarios.map((scenario) => [scenario.id, scenario]));
  let remaining = scenarios.map((scenario) => scenario.id);
  while (remaining.length > 0) {
    remaining = await runBatch(root, remaining, (id, outcome) => onResult({ scenario: byId.get(id)!, ...outcome }));
  }
}

/** Runs `ids` in one child; resolves with the ids still to run when the child had to be stopped. */
function runBatch(root: string, ids: string[], report: (id: string, outcome: Omit<Result, 'scenario'>) => void): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = fork(WORKER_FILE, [], { execArgv: ['--import', 'tsx'], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let next = 0;
    let current: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const stop = (reasonForCurrent: { category: string; reason: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (current !== undefined) {
        report(current, { passed: false, ...reasonForCurrent });
        next = ids.indexOf(current) + 1;
      }
      child.kill('SIGKILL');
      resolve(ids.slice(next));
    };
    child.on('message', (message: WorkerReport) => {
      if (message.type === 'start') {
        current = message.id;
        timer = setTimeout(
          () => stop({ category: 'timed out', reason: `killed after ${SCENARIO_TIME_LIMIT_MS} ms` }),
          SCENARIO_TIME_LIMIT_MS,
        );
      } else if (message.type === 'done') {
        clearTimeout(timer);
        current = undefined;
        next = ids.indexOf(message.id) + 1;
        report(message.id, { passed: message.passed, category: message.category, reason: message.reason });
      } else {
        settled = true;
        resolve([]);
      }
    });
    child.on('exit', (code, signal) => {
      if (settled) return;
      if (current !== undefined) {
        stop({ category: 'crashed', reason: `the worker process exited (${signal ?? code}) during this scenario` });
        return;
      }
      settled = true;
      // dying between scenarios is a fault of the worker itself, not of one scenario
      if (next < ids.length) reject(new Error(`the TCK worker exited (${signal ?? code}) before running ${ids[next]}`));
      else resolve([]);
    });
    const request: WorkerRequest = { root, ids };
    child.send(request);
  });
}

function pad(text: string | number, width: number, right = false): string {
  const value = String(text);
  return right ? value.padStart(width) : value.padEnd(width);
}

function printSummary(root: string, results: Result[], expected: Set<string>): void {
  const files = new Map<string, { run: number; passed: number; listed: number }>();
  for (const { scenario, passed } of results) {
    const counts = files.get(scenario.path) ?? { run: 0, passed: 0, listed: 0 };
    counts.run++;
    if (passed) counts.passed++;
    if (expected.has(scenario.id)) counts.listed++;
    files.set(scenario.path, counts);
  }
  const width = Math.max(...[...files.keys()].map((path) => path.length), 4) + 2;
  console.log(`openCypher TCK subset, from ${root}`);
  console.log(`${pad('file', width)}${pad('run', 6, true)}${pad('passed', 8, true)}${pad('failed', 8, true)}${pad('listed', 8, true)}`);
  for (const [path, counts] of files) {
    console.log(`${pad(path, width)}${pad(counts.run, 6, true)}${pad(counts.passed, 8, true)}${pad(counts.run - counts.passed, 8, true)}${pad(counts.listed, 8, true)}`);
  }
  const failures = results.filter((result) => !result.passed);
  const causes = new Map<string, number>();
  for (const failure of failures) causes.set(failure.category ?? 'unknown', (causes.get(failure.category ?? 'unknown') ?? 0) + 1);
  if (causes.size > 0) {
    console.log('\nfailure causes:');
    for (const [cause, count] of [...causes].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))) console.log(`${pad(count, 5, true)}  ${cause}`);
  }
  const listedRun = results.filter((result) => expected.has(result.scenario.id)).length;
  console.log(
    `\nfiles: ${files.size}; scenarios run: ${results.length}; passed: ${results.length - failures.length}; ` +
      `failed: ${failures.length}; expected failures listed: ${listedRun}`,
  );
}

async function main(): Promise<number> {
  const options = parseArguments(process.argv.slice(2));
  const root = featuresDirectory();
  const missing = missingFolders(root);
  if (missing.length > 0) {
    console.error(
      `The openCypher TCK feature files were not found: ${missing.map((folder) => `${root}/${folder}`).join(', ')} missing.\n` +
        `Put the openCypher TCK's features folder (tck/features of github.com/opencypher/openCypher) at ` +
        `../shared/tck/tck/features beside the project, or set PARLEY_TCK_DIR to the features folder's path` +
        (process.env.PARLEY_TCK_DIR === undefined ? '.' : ` (it is now ${process.env.PARLEY_TCK_DIR}).`),
    );
    return 1;
  }
  const expected = readExpectedFailures();
  const all = loadScenarios(root);
  const selected = options.filter === undefined ? all : all.filter((scenario) => scenario.id.includes(options.filter!));
  const verbose = options.filter !== undefined;

  const results: Result[] = [];
  const started = performance.now();
  await runScenarios(root, selected, (result) => {
    results.push(result);
    if (verbose) {
      console.log(`${result.passed ? 'PASS' : 'FAIL'} ${result.scenario.id}`);
      if (!result.passed) console.log(`  ${result.reason?.replace(/\n/g, '\n  ')}\n`);
    }
  });
  const seconds = ((performance.now() - started) / 1000).toFixed(1);

  if (options.updateExpected) {
    const failing = results.filter((result) => !result.passed).map((result) => result.scenario.id);
    writeFileSync(EXPECTED_FAILURES_FILE, EXPECTED_FAILURES_HEADER + failing.map((id) => id + '\n').join(''));
    printSummary(root, results, new Set(failing));
    console.log(`wrote ${failing.length} expected failures to ${EXPECTED_FAILURES_FILE} (${seconds} s)`);
    return 0;
  }

  printSummary(root, results, expected);
  console.log(`(${seconds} s)`);
  const unexpectedFailures = results.filter((result) => !result.passed && !expected.has(result.scenario.id));
  const unexpectedPasses = results.filter((result) => result.passed && expected.has(result.scenario.id));
  const knownIds = new Set(all.map((scenario) => scenario.id));
  const stale = options.filter === undefined ? [...expected].filter((id) => !knownIds.has(id)) : [];
  for (const result of unexpectedFailures) {
    console.log(`\nFAILED (not an expected failure): ${result.scenario.id}\n  ${result.category}`);
  }
  for (const result of unexpectedPasses) console.log(`\nPASSED but listed as an expected failure (remove it from the list): ${result.scenario.id}`);
  for (const id of stale) console.log(`\nlisted as an expected failure but no such scenario in the covered files (remove it): ${id}`);
  if (unexpectedFailures.length + unexpectedPasses.length + stale.length === 0) return 0;
  console.log(
    `\n${unexpectedFailures.length} unexpected failures, ${unexpectedPasses.length} unexpected passes, ${stale.length} stale entries ` +
      `(see ${EXPECTED_FAILURES_FILE}; --filter <id> shows a scenario's diff)`,
  );
  return 1;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exitCode = 1;
  },
);
