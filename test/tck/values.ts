/**
 * The TCK's notation for expected values (the cells of result and parameter
 * tables, tck/README.adoc "Format of the expected results"), parsed into
 * TckValue, and a canonical text form used to compare values and rows.
 *
 * Integers are bigints so that 64-bit values survive and so that an integer
 * never equals a float: `1` and `1.0` are different Cypher values.
 */

export type TckValue =
  | { kind: 'null' }
  | { kind: 'boolean'; value: boolean }
  | { kind: 'integer'; value: bigint }
  | { kind: 'float'; value: number }
  | { kind: 'string'; value: string }
  | { kind: 'list'; items: TckValue[] }
  | { kind: 'map'; entries: Record<string, TckValue> }
  | TckNode
  | TckRelationship
  | TckPath;

export interface TckNode {
  kind: 'node';
  labels: string[];
  properties: Record<string, TckValue>;
}

export interface TckRelationship {
  kind: 'relationship';
  type: string;
  properties: Record<string, TckValue>;
}

export interface TckPath {
  kind: 'path';
  start: TckNode;
  /** `forward` is `-[r]->`, otherwise `<-[r]-`, read from the path's start. */
  steps: { relationship: TckRelationship; forward: boolean; node: TckNode }[];
}

export class TckValueSyntaxError extends Error {}

export function parseTckValue(text: string): TckValue {
  const parser = new ValueParser(text);
  const value = parser.value();
  parser.end();
  return value;
}

const SYMBOLIC_NAME = /[A-Za-z0-9$_]+/y;
const FLOAT = /-?(?:\d+\.\d+(?:[eE][+-]?\d+)?|\.\d+(?:[eE][+-]?\d+)?|\d+[eE][+-]?\d+)/y;
const INTEGER = /-?\d+/y;

class ValueParser {
  private at = 0;
  constructor(private readonly text: string) {}

  value(): TckValue {
    this.skipSpace();
    const char = this.text[this.at];
    if (char === '(') return this.node();
    if (char === '<') return this.path();
    if (char === '[') return this.peekAfterSpace(this.at + 1) === ':' ? this.relationship() : this.list();
    if (char === '{') return { kind: 'map', entries: this.propertyMap() };
    if (char === "'") return this.string();
    for (const [word, value] of WORDS) if (this.word(word)) return value;
    const float = this.match(FLOAT);
    if (float !== undefined) return { kind: 'float', value: Number(float) };
    const integer = this.match(INTEGER);
    if (integer !== undefined) return { kind: 'integer', value: BigInt(integer) };
    this.fail('a value');
  }

  end(): void {
    this.skipSpace();
    if (this.at < this.text.length) this.fail('the end of the value');
  }

  private node(): TckNode {
    this.expect('(');
    const labels: string[] = [];
    this.skipSpace();
    while (this.text[this.at] === ':') {
      this.at++;
      labels.push(this.symbolicName());
      this.skipSpace();
    }
    const properties = this.text[this.at] === '{' ? this.propertyMap() : {};
    this.expect(')');
    return { kind: 'node', labels, properties };
  }

  private relationship(): TckRelationship {
    this.expect('[');
    this.expect(':');
    const type = this.symbolicName();
    this.skipSpace();
    const properties = this.text[this.at] === '{' ? this.propertyMap() : {};
    this.expect(']');
    return { kind: 'relationship', type, properties };
  }

  private path(): TckPath {
    this.expect('<');
    this.skipSpace();
    const start = this.node();
    const steps: TckPath['steps'] = [];
    for (;;) {
      this.skipSpace();
      if (this.text.startsWith('<-', this.at)) {
        this.at += 2;
        const relationship = this.relationship();
        this.expect('-');
        steps.push({ relationship, forward: false, node: this.node() });
      } else if (this.text[this.at] === '-') {
        this.at++;
        const relationship = this.relationship();
        this.expect('->');
        steps.push({ relationship, forward: true, node: this.node() });
      } else break;
    }
    this.expect('>');
    return { kind: 'path', start, steps };
  }

  private list(): TckValue {
    this.expect('[');
    const items: TckValue[] = [];
    if (this.peekAfterSpace(this.at) !== ']') {
      do items.push(this.value());
      while (this.optional(','));
    }
    this.expect(']');
    return { kind: 'list', items };
  }

  private propertyMap(): Record<string, TckValue> {
    this.expect('{');
    const entries: Record<string, TckValue> = {};
    if (this.peekAfterSpace(this.at) !== '}') {
      do {
        this.skipSpace();
        const key = this.symbolicName();
        this.expect(':');
        if (Object.hasOwn(entries, key)) this.fail(`a key other than '${key}' (already given)`);
        entries[key] = this.value();
      } while (this.optional(','));
    }
    this.expect('}');
    return entries;
  }

  /**
   * A string runs to the next unescaped quote. The TCK writes `\'` for a quote
   * inside a string; other backslashes are literal characters.
   */
  private string(): TckValue {
    this.expect("'");
    let value = '';
    while (this.at < this.text.length && this.text[this.at] !== "'") {
      if (this.text.startsWith("\\'", this.at)) {
        value += "'";
        this.at += 2;
      } else value += this.text[this.at++];
    }
    this.expect("'");
    return { kind: 'string', value };
  }

  private symbolicName(): string {
    const name = this.match(SYMBOLIC_NAME);
    if (name === undefined) this.fail('a name');
    return name;
  }

  private word(word: string): boolean {
    if (!this.text.startsWith(word, this.at)) return false;
    const after = this.text[this.at + word.length];
    if (after !== undefined && /[A-Za-z0-9_]/.test(after)) return false;
    this.at += word.length;
    return true;
  }

  private match(pattern: RegExp): string | undefined {
    pattern.lastIndex = this.at;
    const found = pattern.exec(this.text);
    if (!found) return undefined;
    this.at += found[0].length;
    return found[0];
  }

  private optional(token: string): boolean {
    this.skipSpace();
    if (!this.text.startsWith(token, this.at)) return false;
    this.at += token.length;
    return true;
  }

  private expect(token: string): void {
    if (!this.optional(token)) this.fail(`'${token}'`);
  }

  private peekAfterSpace(from: number): string | undefined {
    let at = from;
    while (/\s/.test(this.text[at] ?? '')) at++;
    return this.text[at];
  }

  private skipSpace(): void {
    while (/\s/.test(this.text[this.at] ?? '')) this.at++;
  }

  private fail(expected: string): never {
    throw new TckValueSyntaxError(`expected ${expected} at offset ${this.at} of ${JSON.stringify(this.text)}`);
  }
}

const WORDS: [string, TckValue][] = [
  ['null', { kind: 'null' }],
  ['true', { kind: 'boolean', value: true }],
  ['false', { kind: 'boolean', value: false }],
  ['NaN', { kind: 'float', value: NaN }],
  ['-Inf', { kind: 'float', value: -Infinity }],
  ['Inf', { kind: 'float', value: Infinity }],
];

export interface CanonicalOptions {
  /** "ignoring element order for lists": lists compare as multisets, at every depth. */
  unorderedLists: boolean;
}

/**
 * A text form that is equal for two values exactly when the TCK considers them
 * equal: node labels and map keys sorted; NaN equals NaN; 0.0 equals -0.0 (the
 * reference runner compares doubles numerically); integers and floats differ.
 */
export function canonical(value: TckValue, options: CanonicalOptions): string {
  const properties = (entries: Record<string, TckValue>) =>
    '{' +
    Object.keys(entries)
      .sort()
      .map((key) => `${key}: ${canonical(entries[key], options)}`)
      .join(', ') +
    '}';
  switch (value.kind) {
    case 'null':
      return 'null';
    case 'boolean':
      return String(value.value);
    case 'integer':
      return value.value.toString();
    case 'float':
      return formatFloat(value.value === 0 ? 0 : value.value);
    case 'string':
      return JSON.stringify(value.value);
    case 'list': {
      const items = value.items.map((item) => canonical(item, options));
      if (options.unorderedLists) items.sort();
      return '[' + items.join(', ') + ']';
    }
    case 'map':
      return properties(value.entries);
    case 'node':
      return '(' + [...value.labels].sort().map((label) => ':' + label).join('') + ' ' + properties(value.properties) + ')';
    case 'relationship':
      return '[:' + value.type + ' ' + properties(value.properties) + ']';
    case 'path':
      return (
        '<' +
        canonical(value.start, options) +
        value.steps
          .map((step) => {
            const relationship = canonical(step.relationship, options);
            return (step.forward ? `-${relationship}->` : `<-${relationship}-`) + canonical(step.node, options);
          })
          .join('') +
        '>'
      );
  }
}

/** Floats always show a decimal point or exponent, so that 1.0 never reads as the integer 1. */
function formatFloat(value: number): string {
  if (Number.isNaN(value)) return 'NaN';
  if (value === Infinity) return 'Inf';
  if (value === -Infinity) return '-Inf';
  const text = String(value);
  return /[.eE]/.test(text) ? text : text + '.0';
}

/** The TCK notation of a value, for diffs (labels and keys in their given order). */
export function formatTckValue(value: TckValue): string {
  const properties = (entries: Record<string, TckValue>) =>
    '{' + Object.entries(entries).map(([key, item]) => `${key}: ${formatTckValue(item)}`).join(', ') + '}';
  switch (value.kind) {
    case 'null':
      return 'null';
    case 'boolean':
      return String(value.value);
    case 'integer':
      return value.value.toString();
    case 'float':
      return Object.is(value.value, -0) ? '-0.0' : formatFloat(value.value);
    case 'string':
      return "'" + value.value.replace(/'/g, "\\'") + "'";
    case 'list':
      return '[' + value.items.map(formatTckValue).join(', ') + ']';
    case 'map':
      return properties(value.entries);
    case 'node': {
      const inside = [value.labels.map((label) => ':' + label).join(''), Object.keys(value.properties).length ? properties(value.properties) : '']
        .filter((part) => part !== '')
        .join(' ');
      return '(' + inside + ')';
    }
    case 'relationship':
      return '[:' + value.type + (Object.keys(value.properties).length ? ' ' + properties(value.properties) : '') + ']';
    case 'path':
      return (
        '<' +
        formatTckValue(value.start) +
        value.steps
          .map((step) => {
            const relationship = formatTckValue(step.relationship);
            return (step.forward ? `-${relationship}->` : `<-${relationship}-`) + formatTckValue(step.node);
          })
          .join('') +
        '>'
      );
  }
}
