/**
 * The documentation says only what exists: every relative link (and #anchor) resolves,
 * every `npm run X` is a script, every `parley <command>` is a command the CLI defines,
 * and docs/configuration.md lists exactly the environment variables the code reads.
 * The README stays a first hour: short, with the quick start on its first screens.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const PAGES = ['README.md', 'frameworks/README.md', ...readdirSync(path.join(ROOT, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];
/** Where the code that reads the environment lives (test/tck reads PARLEY_TCK_DIR). */
const CODE_TREES = ['server', 'engine', 'packages', 'scripts', 'bench', 'test/tck'];

const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : sourceFiles(full);
    return /\.(ts|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
  });
}

/** The page's prose, with fenced code blocks and inline code blanked (links in code are not links). */
function prose(markdown: string): string {
  return markdown.replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, ' ')).replace(/`[^`\n]*`/g, (code) => ' '.repeat(code.length));
}

/** Fenced code blocks and inline code spans: where commands are written. */
function codeOf(markdown: string): string[] {
  const blocks = [...markdown.matchAll(/^```[^\n]*\n([\s\S]*?)^```/gm)].map((match) => match[1]);
  const withoutBlocks = markdown.replace(/^```[\s\S]*?^```/gm, '');
  const spans = [...withoutBlocks.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]);
  return [...blocks, ...spans];
}

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens. */
function anchorOf(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');
}

function anchorsOf(file: string): Set<string> {
  return new Set(prose(read(file)).split('\n').flatMap((line) => (/^#{1,6} /.test(line) ? [anchorOf(line.replace(/^#+ /, ''))] : [])));
}

/** Problems with one page's relative links: a missing file, or an anchor with no such heading. */
function brokenLinks(page: string, text = read(page)): string[] {
  const problems: string[] = [];
  for (const match of prose(text).matchAll(/!?\[[^\]]*\]\(([^)\s]+)\)/g)) {
    const target = match[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:
    const [file, anchor] = target.split('#');
    const resolved = file === '' ? page : path.posix.normalize(path.posix.join(path.posix.dirname(page), file));
    if (!existsSync(path.join(ROOT, resolved))) {
      problems.push(`${page}: ${target} (no ${resolved})`);
      continue;
    }
    if (anchor !== undefined && (!resolved.endsWith('.md') || statSync(path.join(ROOT, resolved)).isDirectory() || !anchorsOf(resolved).has(anchor))) {
      problems.push(`${page}: ${target} (no heading #${anchor} in ${resolved})`);
    }
  }
  return problems;
}

/** The CLI's commands as commander defines them in packages/cli/src: top-level names, and the subcommands of each group. */
function cliCommands(): { top: Set<string>; sub: Map<string, Set<string>>; valueOptions: Set<string> } {
  const top = new Set<string>();
  const sub = new Map<string, Set<string>>();
  const files = sourceFiles(path.join(ROOT, 'packages/cli/src'));
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    const groups = new Map<string, string>();
    for (const [, variable, name] of text.matchAll(/const (\w+) = program\s*\.command\('([\w-]+)'\)/g)) groups.set(variable, name);
    for (const [, receiver, name] of text.matchAll(/(\w+)\s*\.command\('([\w-]+)'\)/g)) {
      if (receiver === 'program') top.add(name);
      else if (groups.has(receiver)) sub.set(groups.get(receiver)!, (sub.get(groups.get(receiver)!) ?? new Set()).add(name));
    }
  }
  const main = read('packages/cli/src/main.ts');
  const valueOptions = new Set([...main.matchAll(/Option\('(--[\w-]+) </g)].map((match) => match[1]));
  return { top, sub, valueOptions };
}

/** Every `parley …` invocation written in the pages' code, as the words after `parley`. */
function parleyInvocations(page: string): string[][] {
  return codeOf(read(page)).flatMap((code) =>
    [...code.matchAll(/(?:^|[\s;&|(])(?:npx\s+)?parley((?:[ \t]+[^\s;&|)]+)*)/gm)].map((match) => match[1].trim().split(/[ \t]+/).filter(Boolean)),
  );
}

/** Problems with the commands one invocation names: options are skipped, with the value of those that take one. */
function unknownCommand(words: string[], cli: ReturnType<typeof cliCommands>): string | undefined {
  let i = 0;
  while (i < words.length && words[i].startsWith('-')) i += cli.valueOptions.has(words[i]) ? 2 : 1;
  const command = words[i];
  if (command === undefined || !/^[a-z]/.test(command)) return undefined; // `parley <command>`, or the word alone
  if (!cli.top.has(command)) return `parley ${command}`;
  const subcommands = cli.sub.get(command);
  const next = words[i + 1];
  if (subcommands && next !== undefined && /^[a-z]/.test(next) && !subcommands.has(next)) return `parley ${command} ${next}`;
  return undefined;
}

/** Environment variables the code reads: env.NAME, env['NAME'], or the name as a whole string literal (integer(env, 'NAME'), .env('NAME')). */
function variablesRead(): Set<string> {
  const names = new Set<string>();
  for (const file of CODE_TREES.flatMap((tree) => sourceFiles(path.join(ROOT, tree)))) {
    const text = readFileSync(file, 'utf8');
    for (const [, name] of text.matchAll(/\benv\.([A-Z][A-Z0-9_]+)\b/g)) names.add(name);
    for (const [, name] of text.matchAll(/['"`]([A-Z][A-Z0-9_]*_[A-Z0-9_]+|PORT|HOST)['"`]/g)) names.add(name);
  }
  return names;
}

/** docs/configuration.md's variables (the first column of its tables) and its deprecated aliases (rows naming an old and a new variable). */
function variablesDocumented(): { names: Set<string>; aliases: Map<string, string> } {
  const names = new Set<string>();
  const aliases = new Map<string, string>();
  for (const line of read('docs/configuration.md').split('\n')) {
    const cells = line.split('|').slice(1, -1).map((cell) => cell.trim());
    const variable = /^`([A-Z][A-Z0-9_]+)`$/;
    if (!cells[0] || !variable.test(cells[0])) continue;
    const name = cells[0].match(variable)![1];
    names.add(name);
    if (cells[1] && variable.test(cells[1])) aliases.set(name, cells[1].match(variable)![1]);
  }
  return { names, aliases };
}

describe('the documentation', () => {
  it('links only to files and headings that exist', () => {
    expect(PAGES.flatMap((page) => brokenLinks(page))).toEqual([]);
  });

  it('finds a missing file and a missing heading, and reads links in code as code', () => {
    const page = 'See [keys](operations.md#api-keys), [gone](operations.md#no-such-heading), [lost](../nowhere.md) and `[code](x.md)`.';
    expect(brokenLinks('docs/example.md', page)).toEqual([
      'docs/example.md: operations.md#no-such-heading (no heading #no-such-heading in docs/operations.md)',
      'docs/example.md: ../nowhere.md (no nowhere.md)',
    ]);
  });

  it('names only npm scripts that package.json defines (with -w, the workspace)', () => {
    const scriptsOf = (dir: string) => Object.keys((JSON.parse(read(path.join(dir, 'package.json'))).scripts ?? {}) as Record<string, string>);
    const workspaces = new Map<string, string[]>(
      (JSON.parse(read('package.json')).workspaces as string[]).map((dir) => [JSON.parse(read(path.join(dir, 'package.json'))).name as string, scriptsOf(dir)]),
    );
    const named = PAGES.flatMap((page) =>
      [...read(page).matchAll(/\bnpm (?:run ([\w:.-]+)(?: -w ([\w@/.-]+))?|(start|test)\b)/g)].map((match) => ({ script: match[1] ?? match[3], workspace: match[2] })),
    );
    expect(named.length).toBeGreaterThan(10);
    const unknown = named.filter(({ script, workspace }) => !(workspace ? (workspaces.get(workspace) ?? []) : scriptsOf('.')).includes(script));
    expect(unknown.map(({ script, workspace }) => (workspace ? `${script} -w ${workspace}` : script))).toEqual([]);
  });

  it('names only parley commands the CLI defines', () => {
    const cli = cliCommands();
    expect(cli.top.has('analyze-corpus')).toBe(true);
    expect(cli.sub.get('keys')?.has('create')).toBe(true);
    const invocations = PAGES.flatMap(parleyInvocations);
    expect(invocations.length).toBeGreaterThan(20);
    expect(invocations.map((words) => unknownCommand(words, cli)).filter(Boolean)).toEqual([]);
    expect(unknownCommand(['analyse-corpus', 'x'], cli)).toBe('parley analyse-corpus');
    expect(unknownCommand(['--tenant', 'my-team', 'keys', 'rotate'], cli)).toBe('parley keys rotate');
  });

  it('documents every environment variable the code reads, and only those', () => {
    const readByCode = variablesRead();
    const { names, aliases } = variablesDocumented();
    // a deprecated name and its new one are one setting: read under either, it is read
    const settingRead = (name: string) =>
      readByCode.has(name) || readByCode.has(aliases.get(name) ?? '') || [...aliases].some(([old, current]) => current === name && readByCode.has(old));
    expect([...names].filter((name) => !settingRead(name))).toEqual([]);
    expect([...readByCode].filter((name) => name.startsWith('PARLEY_') && !names.has(name) && ![...aliases.values()].includes(name))).toEqual([]);
    expect(names.has('PARLEY_TENANT')).toBe(true);
  });

  it('keeps the README to a first hour: at most 250 lines, the quick start within the first 100', () => {
    const lines = read('README.md').split('\n');
    expect(lines.length).toBeLessThanOrEqual(250);
    const start = lines.indexOf('## Quick start');
    const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
    expect(start).toBeGreaterThan(0);
    expect(end).toBeLessThanOrEqual(100);
  });
});
