/**
 * A reader for the subset of Gherkin the openCypher TCK feature files use:
 * Feature, Background, Scenario, Scenario Outline with Examples tables, tags,
 * `#` comments, steps (Given/When/Then/And/But) each with an optional doc
 * string (""" … """) or data table (| … |). Outlines are expanded into one
 * scenario per example row, with `<name>` placeholders substituted in step
 * text, doc strings and table cells.
 */

export interface Step {
  keyword: string;
  /** The step text after the keyword, e.g. `executing query:`. */
  text: string;
  line: number;
  docString?: string;
  table?: string[][];
}

export interface ScenarioSpec {
  /** `<file>:<line> <feature> <scenario name>`, plus the example row for an outline; unique per file. */
  id: string;
  file: string;
  line: number;
  featureName: string;
  /** The scenario's title, e.g. `[1] Match non-existent nodes returns empty`. */
  name: string;
  tags: string[];
  /** For an expanded outline: the example row's values by column. */
  example?: Record<string, string>;
  /** Background steps first, then the scenario's own. */
  steps: Step[];
}

export interface FeatureSpec {
  file: string;
  name: string;
  scenarios: ScenarioSpec[];
}

export class GherkinError extends Error {
  constructor(file: string, line: number, message: string) {
    super(`${file}:${line}: ${message}`);
  }
}

const STEP_KEYWORDS = ['Given', 'When', 'Then', 'And', 'But'];

interface RawScenario {
  outline: boolean;
  name: string;
  line: number;
  tags: string[];
  steps: Step[];
  examples: { line: number; header: string[]; rows: { line: number; cells: string[] }[] }[];
}

export function parseFeature(text: string, file: string): FeatureSpec {
  const lines = text.split(/\r?\n/);
  let featureName: string | undefined;
  let background: Step[] | undefined;
  const raw: RawScenario[] = [];
  let pendingTags: string[] = [];
  // where steps currently go: the background, a scenario, or an Examples table
  let stepTarget: Step[] | undefined;
  let examplesTarget: RawScenario['examples'][number] | undefined;

  let i = 0;
  while (i < lines.length) {
    const lineNumber = i + 1;
    const trimmed = lines[i].trim();
    i++;
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    if (trimmed.startsWith('@')) {
      pendingTags.push(...trimmed.split(/\s+/).filter((tag) => tag.startsWith('@')));
      continue;
    }
    const section = /^(Feature|Background|Scenario Outline|Scenario Template|Scenario|Example|Examples|Scenarios):\s*(.*)$/.exec(trimmed);
    if (section) {
      const [, keyword, title] = section;
      examplesTarget = undefined;
      if (keyword === 'Feature') {
        featureName = title;
        stepTarget = undefined;
      } else if (keyword === 'Background') {
        background = [];
        stepTarget = background;
      } else if (keyword === 'Examples' || keyword === 'Scenarios') {
        const scenario = raw.at(-1);
        if (!scenario?.outline) throw new GherkinError(file, lineNumber, 'Examples outside a Scenario Outline');
        examplesTarget = { line: lineNumber, header: [], rows: [] };
        scenario.examples.push(examplesTarget);
        stepTarget = undefined;
      } else {
        const outline = keyword === 'Scenario Outline' || keyword === 'Scenario Template';
        const scenario: RawScenario = { outline, name: title, line: lineNumber, tags: pendingTags, steps: [], examples: [] };
        raw.push(scenario);
        stepTarget = scenario.steps;
      }
      pendingTags = [];
      continue;
    }
    if (trimmed.startsWith('|')) {
      let cells: string[];
      try {
        cells = splitTableRow(trimmed);
      } catch (error) {
        throw new GherkinError(file, lineNumber, (error as Error).message);
      }
      if (examplesTarget) {
        if (examplesTarget.header.length === 0) examplesTarget.header = cells;
        else examplesTarget.rows.push({ line: lineNumber, cells });
        continue;
      }
      const step = stepTarget?.at(-1);
      if (!step || step.docString !== undefined) throw new GherkinError(file, lineNumber, 'table row without a step');
      (step.table ??= []).push(cells);
      continue;
    }
    if (trimmed.startsWith('"""') || trimmed.startsWith('```')) {
      const step = stepTarget?.at(-1);
      if (!step || step.table || step.docString !== undefined) throw new GherkinError(file, lineNumber, 'doc string without a step');
      const fence = trimmed.slice(0, 3);
      const indent = lines[i - 1].indexOf(fence);
      const body: string[] = [];
      while (i < lines.length && lines[i].trim() !== fence) {
        body.push(dedent(lines[i], indent));
        i++;
      }
      if (i >= lines.length) throw new GherkinError(file, lineNumber, 'unterminated doc string');
      i++; // the closing fence
      step.docString = body.join('\n');
      continue;
    }
    const keyword = STEP_KEYWORDS.find((candidate) => trimmed.startsWith(candidate + ' '));
    if (keyword) {
      if (!stepTarget) throw new GherkinError(file, lineNumber, `step outside a scenario: ${trimmed}`);
      stepTarget.push({ keyword, text: trimmed.slice(keyword.length + 1).trim(), line: lineNumber });
      continue;
    }
    throw new GherkinError(file, lineNumber, `unrecognised line: ${trimmed}`);
  }
  if (featureName === undefined) throw new GherkinError(file, 1, 'no Feature');

  const scenarios: ScenarioSpec[] = [];
  const seenIds = new Set<string>();
  const addScenario = (spec: Omit<ScenarioSpec, 'id'>, exampleLabel?: string) => {
    let id = `${spec.file}:${spec.line} ${spec.featureName} ${spec.name}` + (exampleLabel ? ` ${exampleLabel}` : '');
    // two identical example rows would otherwise share an id
    for (let n = 2; seenIds.has(id); n++) id = `${id} #${n}`;
    seenIds.add(id);
    scenarios.push({ id, ...spec });
  };
  for (const scenario of raw) {
    const steps = [...(background ?? []), ...scenario.steps];
    const base = { file, line: scenario.line, featureName, name: scenario.name, tags: scenario.tags };
    if (!scenario.outline) {
      addScenario({ ...base, steps });
      continue;
    }
    for (const examples of scenario.examples) {
      for (const row of examples.rows) {
        if (row.cells.length !== examples.header.length) throw new GherkinError(file, row.line, 'example row width differs from its header');
        const example = Object.fromEntries(examples.header.map((name, column) => [name, row.cells[column]]));
        addScenario({ ...base, example, steps: steps.map((step) => substituteStep(step, example)) }, `| ${row.cells.join(' | ')} |`);
      }
    }
  }
  return { file, name: featureName, scenarios };
}

/** Splits `| a | b\|c |` into cells, honouring Gherkin's escapes (`\|`, `\\`, `\n`). */
export function splitTableRow(row: string): string[] {
  const cells: string[] = [];
  let current = '';
  // the row starts with '|': skip it
  for (let i = 1; i < row.length; i++) {
    const char = row[i];
    if (char === '\\' && i + 1 < row.length) {
      const next = row[i + 1];
      if (next === '|' || next === '\\') {
        current += next;
        i++;
        continue;
      }
      if (next === 'n') {
        current += '\n';
        i++;
        continue;
      }
    }
    if (char === '|') {
      cells.push(current.trim());
      current = '';
      continue;
    }
    current += char;
  }
  if (current.trim() !== '') throw new Error(`table row not closed by '|': ${row}`);
  return cells;
}

function dedent(line: string, indent: number): string {
  let strip = 0;
  while (strip < indent && strip < line.length && line[strip] === ' ') strip++;
  return line.slice(strip);
}

function substitute(text: string, example: Record<string, string>): string {
  return text.replace(/<([^<>\s][^<>]*)>/g, (whole, name: string) => (name in example ? example[name] : whole));
}

function substituteStep(step: Step, example: Record<string, string>): Step {
  return {
    ...step,
    text: substitute(step.text, example),
    docString: step.docString === undefined ? undefined : substitute(step.docString, example),
    table: step.table?.map((row) => row.map((cell) => substitute(cell, example))),
  };
}
