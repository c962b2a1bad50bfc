// The heap setting `npm start` and `parley serve` apply themselves (server/start.mjs): V8's default
// old-space limit (about 4 GB on a 64-bit machine, whatever its memory) ends an import of ten
// million facts with "JavaScript heap out of memory" on a machine with 120 GB free. The server
// runs with PARLEY_HEAP_MB instead (default: half of the memory the process may use, the machine's
// or its cgroup's), set by re-executing the same command with --max-old-space-size: V8 reads the
// limit once, at start, so a process cannot raise its own. The flag applies to every isolate of
// the process, the reasoning and extraction worker threads included (each stays within its own
// bounds: replicas, models).
//
// It also runs with V8's old generation allowed to grow by at most PARLEY_HEAP_GROWING_PERCENT (default 50) of
// what the last full collection left live before the next one (--heap-growing-percent): with a limit of gigabytes
// V8 lets it grow up to four times that, so under a steady mixed load (bench/soak: 50 clients on 10k facts) the main
// thread's heap went from 67 to 236 MB used and back (276 MB committed) between its full collections, most of the
// server's RSS band (17 % off its value at the warm-up's end, the target being 10 %). The flag, read at start as the
// limit is, applies to the worker threads too; collections come more often (a heap that is mostly garbage collects
// faster, and one whose objects survive pays more).
//
// The re-executed server also gets MALLOC_ARENA_MAX=2 when the environment sets no value of its own
// (glibc reads it once, at start, as V8 its limit): glibc gives each thread that allocates at once
// an arena of its own, up to 8 per core, and memory freed in one (by a worker thread that ended,
// say) is seldom returned to the system while others hold it; under a long mixed load
// (bench/soak) the server's native memory grew by 150-210 MB in one run. Two arenas cost the
// threads some contention on malloc, which V8's own heaps and WebAssembly memories do not go
// through.
//
// The child is tied to its parent: a signal the parent gets (SIGINT, SIGTERM) is passed on, the
// parent exits with the child's status, and the child ends itself (cleanly, as on SIGTERM) when
// the IPC channel to its parent closes, which the kernel does however the parent ends, SIGKILL
// included, so no server is left holding the data directory.
import { spawn } from 'node:child_process';
import { constants, totalmem } from 'node:os';
import { getHeapStatistics } from 'node:v8';

const MB = 1024 * 1024;
const MALLOC_ARENAS = '2';
const DEFAULT_HEAP_GROWING_PERCENT = 50;
/** V8's own growth goes up to 300 %; far above, a heap would grow by many times its live size between collections. */
const MAX_HEAP_GROWING_PERCENT = 1000;

/**
 * The old-space limit in MB the server is to run with: PARLEY_HEAP_MB (0: V8's default, no
 * re-execution), else half of the memory the process may use (`memoryBytes`). Throws on a value
 * that is not a whole number.
 */
export function heapSettingMb(env, memoryBytes) {
  const setting = env.PARLEY_HEAP_MB;
  if (setting !== undefined && setting !== '') {
    if (!/^\d+$/.test(setting)) throw new Error(`PARLEY_HEAP_MB must be a whole number of megabytes (0: V8's default), not '${setting}'`);
    return Number(setting);
  }
  return Math.floor(memoryBytes / 2 / MB);
}

/**
 * How far V8's old generation may grow past what the last full collection left live before the next, in percent:
 * PARLEY_HEAP_GROWING_PERCENT (0: V8's own, up to 300 % for a large limit), else 50. Throws on a value that is not a
 * whole number, or is above MAX_HEAP_GROWING_PERCENT.
 */
export function heapGrowingPercent(env) {
  const setting = env.PARLEY_HEAP_GROWING_PERCENT;
  if (setting !== undefined && setting !== '') {
    if (!/^\d+$/.test(setting) || Number(setting) > MAX_HEAP_GROWING_PERCENT) {
      throw new Error(`PARLEY_HEAP_GROWING_PERCENT must be a whole number from 0 (V8's own growth) to ${MAX_HEAP_GROWING_PERCENT}, not '${setting}'`);
    }
    return Number(setting);
  }
  return DEFAULT_HEAP_GROWING_PERCENT;
}

/**
 * NODE_OPTIONS split into arguments as Node splits it: at spaces outside double quotes, the quotes dropped, a backslash
 * within them taking the next character as it is.
 */
function nodeOptionsArgs(nodeOptions) {
  const args = [];
  let quoted = false;
  let startsNew = true;
  for (let index = 0; index < nodeOptions.length; index++) {
    let char = nodeOptions[index];
    if (char === '\\' && quoted) char = nodeOptions[++index] ?? '';
    else if (char === ' ' && !quoted) {
      startsNew = true;
      continue;
    } else if (char === '"') {
      quoted = !quoted;
      continue;
    }
    if (startsNew) args.push(char);
    else args[args.length - 1] += char;
    startsNew = false;
  }
  return args;
}

/**
 * The value V8 runs with for flag `name` (e.g. 'max-old-space-size'; V8 reads dashes and underscores alike): the last
 * `--name=value` on the command line, else the last in NODE_OPTIONS (Node reads those first, so the command line has the
 * last word); undefined when neither gives it. Node takes only some V8 flags from NODE_OPTIONS: --max-old-space-size
 * but not --heap-growing-percent, for which it refuses to start.
 */
export function flagValue(name, execArgv = process.execArgv, nodeOptions = process.env.NODE_OPTIONS ?? '') {
  const lastIn = (args) => args.map((arg) => /^--([^=]+)=(.*)$/s.exec(arg)).findLast((flag) => flag?.[1].replaceAll('_', '-') === name)?.[2];
  return lastIn(execArgv) ?? lastIn(nodeOptionsArgs(nodeOptions));
}

/** The memory this process may use: the machine's, or its cgroup's limit when lower. */
function usableMemory() {
  const limit = process.constrainedMemory?.() ?? 0;
  return limit > 0 && limit < totalmem() ? limit : totalmem();
}

/** Whether this process runs on glibc without MALLOC_ARENA_MAX (or with it empty): the re-executed server sets it. */
function mallocArenasUnset() {
  // (a diagnostic report is built only where glibc can be: on Linux, and when the setting is missing)
  return process.platform === 'linux' && !process.env.MALLOC_ARENA_MAX && Boolean(process.report?.getReport().header.glibcVersionRuntime);
}

/**
 * In a process that runs with a lower limit than the setting asks (and was given none, on its
 * command line or in NODE_OPTIONS: the child below is), without the heap's growth setting (when not 0, and not given on
 * its command line), or on glibc without MALLOC_ARENA_MAX, re-executes the command with
 * --max-old-space-size (when the limit is lower), --heap-growing-percent (when missing) and
 * MALLOC_ARENA_MAX=2, passes signals on, exits with the child's status, and returns true: serve
 * nothing here. Else returns false: serve here; a process started with an IPC channel (that child)
 * then ends with its parent.
 */
export function serveWithHeapSetting() {
  // the parent's end closes the channel: end as SIGTERM does (main.ts closes the server and the store)
  if (process.channel) process.on('disconnect', () => process.kill(process.pid, 'SIGTERM'));
  const wantedMb = heapSettingMb(process.env, usableMemory());
  const heapSet = wantedMb === 0 || flagValue('max-old-space-size') !== undefined || wantedMb <= getHeapStatistics().heap_size_limit / MB;
  const growingPercent = heapGrowingPercent(process.env);
  const growingSet = growingPercent === 0 || flagValue('heap-growing-percent') !== undefined;
  if (heapSet && growingSet && !mallocArenasUnset()) return false;
  const flags = [...(heapSet ? [] : [`--max-old-space-size=${wantedMb}`]), ...(growingSet ? [] : [`--heap-growing-percent=${growingPercent}`])];
  const child = spawn(process.execPath, [...process.execArgv, ...flags, ...process.argv.slice(1)], {
    env: { ...process.env, MALLOC_ARENA_MAX: process.env.MALLOC_ARENA_MAX || MALLOC_ARENAS },
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
  });
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (constants.signals[signal] ?? 0)));
  return true;
}
