// The query editor: CodeMirror 6 with a highlighter for the pattern language (a StreamLanguage:
// the grammar is openCypher's, small enough for a tokenizer), completion of the graph's labels,
// relationship types and property keys, and the server's errors and notifications underlined
// at the line and column it reports.
import { autocompletion, closeBrackets, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { HighlightStyle, StreamLanguage, bracketMatching, syntaxHighlighting, type StringStream } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState, type Extension } from '@codemirror/state';
import { EditorView, keymap, lineNumbers, placeholder } from '@codemirror/view';
import { tags } from '@lezer/highlight';

const KEYWORDS = new Set(
  'match optional where with unwind as return distinct order by skip limit asc ascending desc descending and or xor not in is null true false case when then else end exists starts ends contains count collect min max avg sum'.split(' '),
);

interface PatternState {
  /** what the last ':' introduces: a label inside (), a type inside [] */
  afterColon: boolean;
  inComment: boolean;
}

const patternLanguage = StreamLanguage.define<PatternState>({
  name: 'parley-pattern',
  startState: () => ({ afterColon: false, inComment: false }),
  token(stream: StringStream, state: PatternState): string | null {
    if (state.inComment) {
      if (stream.skipTo('*/')) {
        stream.match('*/');
        state.inComment = false;
      } else stream.skipToEnd();
      return 'comment';
    }
    if (stream.eatSpace()) return null;
    if (stream.match('//')) {
      stream.skipToEnd();
      return 'comment';
    }
    if (stream.match('/*')) {
      state.inComment = true;
      return 'comment';
    }
    const quote = stream.peek();
    if (quote === "'" || quote === '"') {
      stream.next();
      let escaped = false;
      for (let next = stream.next(); next !== undefined; next = stream.next()) {
        if (next === quote && !escaped) break;
        escaped = !escaped && next === '\\';
      }
      return 'string';
    }
    if (stream.match(/^\d+(\.\d+)?/)) return 'number';
    if (stream.match(/^\$[A-Za-z_][A-Za-z0-9_]*/)) return 'variableName.special';
    if (stream.match(/^`[^`]*`?/) || stream.match(/^[A-Za-z_][A-Za-z0-9_]*/)) {
      const word = stream.current();
      if (state.afterColon) {
        state.afterColon = false;
        return 'typeName';
      }
      if (KEYWORDS.has(word.toLowerCase())) return 'keyword';
      return stream.peek() === '(' ? 'function' : 'variableName';
    }
    const next = stream.next();
    if (next === ':') {
      state.afterColon = true;
      return 'punctuation';
    }
    state.afterColon = next === '|' && state.afterColon;
    return next && '<>=!+-*/%'.includes(next) ? 'operator' : 'punctuation';
  },
  languageData: { commentTokens: { line: '//', block: { open: '/*', close: '*/' } } },
});

const highlightStyle = HighlightStyle.define([
  { tag: tags.keyword, color: '#1f5fa8', fontWeight: 'bold' },
  { tag: tags.typeName, color: '#7a3e9d' },
  { tag: tags.string, color: '#2f7d32' },
  { tag: tags.number, color: '#b35c00' },
  { tag: tags.comment, color: '#6a737d', fontStyle: 'italic' },
  { tag: tags.special(tags.variableName), color: '#b0306a' },
  { tag: tags.function(tags.variableName), color: '#005f73' },
  { tag: tags.operator, color: '#444' },
]);

/** What completion offers: filled from the graph's counts and the answers seen. */
export interface Vocabulary {
  labels: string[];
  types: string[];
  properties: Set<string>;
}

function completions(vocabulary: Vocabulary) {
  return (context: CompletionContext): CompletionResult | null => {
    const before = context.matchBefore(/[:.]?[A-Za-z_][A-Za-z0-9_]*|[:.]/);
    if (!before) return null;
    const line = context.state.doc.lineAt(context.pos);
    const upTo = line.text.slice(0, context.pos - line.from);
    if (before.text.startsWith(':')) {
      const open = Math.max(upTo.lastIndexOf('('), upTo.lastIndexOf('['));
      const inRelationship = open >= 0 && upTo[open] === '[';
      const names = inRelationship ? vocabulary.types : vocabulary.labels;
      return { from: before.from + 1, options: names.map((label) => ({ label, type: inRelationship ? 'type' : 'class' })), validFor: /^[A-Za-z0-9_]*$/ };
    }
    if (before.text.startsWith('.')) {
      return { from: before.from + 1, options: [...vocabulary.properties].sort().map((label) => ({ label, type: 'property' })), validFor: /^[A-Za-z0-9_]*$/ };
    }
    if (!context.explicit && before.text.length < 2) return null;
    const words = ['MATCH', 'OPTIONAL MATCH', 'WHERE', 'WITH', 'UNWIND', 'RETURN', 'DISTINCT', 'ORDER BY', 'SKIP', 'LIMIT', 'AND', 'OR', 'NOT', 'count', 'collect'];
    return { from: before.from, options: words.map((label) => ({ label, type: 'keyword' })), validFor: /^[A-Za-z_ ]*$/ };
  };
}

export interface QueryEditor {
  view: EditorView;
  text(): string;
  setText(text: string): void;
  /** Underlines each problem at its line and column (1-based), or clears them. */
  mark(problems: { line: number; column: number; message: string; severity: 'error' | 'warning' }[]): void;
}

export function createEditor(parent: HTMLElement, vocabulary: Vocabulary, run: () => void, initial: string): QueryEditor {
  const extensions: Extension[] = [
    lineNumbers(),
    history(),
    bracketMatching(),
    closeBrackets(),
    patternLanguage,
    syntaxHighlighting(highlightStyle),
    autocompletion({ override: [completions(vocabulary)] }),
    lintGutter(),
    placeholder('MATCH (a:Actor)-[r]->(b) RETURN a, r, b LIMIT 100'),
    keymap.of([{ key: 'Mod-Enter', run: () => (run(), true) }, ...defaultKeymap, ...historyKeymap]),
    EditorView.contentAttributes.of({ 'aria-label': 'Query', 'aria-multiline': 'true' }),
    EditorView.lineWrapping,
    EditorView.theme({ '&': { height: '100%', fontSize: '14px' }, '.cm-scroller': { overflow: 'auto', fontFamily: 'ui-monospace, monospace' }, '&.cm-focused': { outline: '2px solid #1f5fa8' } }),
  ];
  // In a shadow root CodeMirror's styles go to adopted style sheets; in the document they would
  // be a <style> element, which the console's Content-Security-Policy refuses.
  const root = parent.attachShadow({ mode: 'open' });
  const view = new EditorView({ state: EditorState.create({ doc: initial, extensions }), parent: root, root });
  return {
    view,
    text: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    },
    mark(problems) {
      const doc = view.state.doc;
      const diagnostics: Diagnostic[] = problems.map((problem) => {
        const line = doc.line(Math.min(Math.max(problem.line, 1), doc.lines));
        const from = Math.min(line.from + Math.max(problem.column - 1, 0), line.to);
        const word = /^[^\s()[\]{},]+/.exec(doc.sliceString(from, line.to));
        const to = Math.min(from + Math.max(word?.[0].length ?? 1, 1), doc.length);
        return { from, to: Math.max(to, from), severity: problem.severity, message: problem.message };
      });
      view.dispatch(setDiagnostics(view.state, diagnostics));
    },
  };
}
