/**
 * Explaining, beside building: prints a plan (plan.ts) as the Prolog goal it
 * stands for and as plan lines, one for each access path, filter and rule call
 * with the planner's estimates. It reads the same goals, in the same order, that
 * build.ts turns into the steps execution runs, and decides nothing of its own.
 */
import type { Expr } from './ast.ts';
import type { ClausePlan, CreateElement, Goal, QueryPlan } from './plan.ts';

export interface Explanation {
  /** The query's Prolog goal: the conjunction of each part, parts joined as alternatives. */
  goal: string;
  /** The plan, step by step with estimated cardinalities. */
  plan: string[];
}

export function explainQuery(plan: QueryPlan): Explanation {
  const goals: string[] = [];
  const lines: string[] = [];
  plan.parts.forEach((part, i) => {
    const partGoals: string[] = [];
    for (const clause of part.clauses) {
      const { goal, lines: clauseLines } = explainClause(clause);
      partGoals.push(goal);
      lines.push(...clauseLines.map((line) => (plan.parts.length > 1 ? `part ${i + 1}: ${line}` : line)));
    }
    goals.push(partGoals.join(',\n'));
  });
  return { goal: goals.join(';\n'), plan: lines };
}

function explainClause(clause: ClausePlan): { goal: string; lines: string[] } {
  switch (clause.kind) {
    case 'match': {
      const goals = clause.countFrom === undefined ? clause.goals : clause.goals.slice(0, clause.countFrom);
      const counted = clause.countFrom === undefined ? [] : clause.goals.slice(clause.countFrom);
      const rendered = goals.map(renderGoal);
      const tail = `(${counted.map(renderGoal).join(', ')})`;
      if (counted.length > 0) rendered.push(`aggregate_all(count, ${clause.countsOnce ? `once(${tail})` : clause.distinctEnds ? `distinct(${prologVar(distinctEndOf(counted))}, ${tail})` : tail}, _)`);
      const body = rendered.length === 0 ? 'true' : rendered.join(', ');
      const how = clause.zeroCounts ? 'optional, no rows: counted per row before, 0 where none' : clause.distinctEnds ? `no rows: distinct ends${clause.endNotStart ? ' other than the start' : ''} counted per row before` : clause.countsOnce ? 'no rows: each row before counted once if completed' : 'no rows: counted per row before';
      const lines = [...goals.flatMap(planLine), ...counted.flatMap(planLine).map((line) => `count ${line} (${how})`)];
      if (clause.countsPerEnd !== undefined) {
        const how = clause.distinctStartsPerEnd ? 'no rows, each start once per group' : 'no rows';
        lines.push(`count the rows per node the last expansion reaches (${how}; as_of: row by row)`);
      }
      if (clause.countFrom === clause.goals.length) lines.push('count the scanned nodes (no rows: each node counted once)');
      if (clause.countsPerPair) lines.push('count the rows per pair of the groups of the node the expansion starts from and the node it reaches (no rows; as_of, or a key holding lists or maps: row by row)');
      if (clause.countsPerGroup?.by === 'type') lines.push('count the relationships per type off the edge columns (no rows; as_of: row by row)');
      if (clause.countsPerGroup?.by === 'labels') lines.push('count the nodes per set of labels (no rows; as_of: row by row)');
      return clause.optional ? { goal: `optional((${body}))`, lines: lines.map((line) => `optional ${line}`) } : { goal: body, lines };
    }
    case 'unwind':
      return { goal: `unwind(${renderExpr(clause.expr)}, ${prologVar(clause.alias.name)})`, lines: [`unwind ${clause.alias.name}`] };
    case 'with':
    case 'return': {
      const names = clause.items.map((item) => item.name);
      return {
        goal: `${clause.kind}([${names.map(quoted).join(', ')}])`,
        lines: [`${clause.kind} ${names.join(', ')}${clause.aggregating ? ' (aggregate)' : ''}`],
      };
    }
    case 'create':
      return {
        goal: clause.elements.map(renderCreate).join(', '),
        lines: clause.elements.map((element) => `create ${element.kind} ${(element.kind === 'node' ? element.node : element.rel).name.trim()}`),
      };
  }
}

function renderGoal(goal: Goal): string {
  switch (goal.kind) {
    case 'node':
      return `node(${prologVar(goal.node.name)}, ${goal.label === undefined ? '_' : atom(goal.label)})`;
    case 'id':
      return `node_id(${prologVar(goal.node.name)}, ${renderExpr(goal.value)})`;
    case 'prop':
      return `${goal.listed ? 'prop_in' : 'prop'}(${prologVar(goal.element.name)}, ${atom(goal.key)}, ${renderExpr(goal.value)})`;
    case 'edge': {
      const rel = prologVar(goal.rel.name);
      const type = goal.types.length === 0 ? '_' : goal.types.length === 1 ? atom(goal.types[0]) : `T_${goal.rel.name.trim()}`;
      const [from, to] = [prologVar(goal.from.name), prologVar(goal.to.name)];
      const edge = (a: string, b: string) => `edge(${rel}, ${type}, ${a}, ${b}, _)`;
      const body = goal.direction === 'out' ? edge(from, to) : goal.direction === 'in' ? edge(to, from) : `(${edge(from, to)} ; ${edge(to, from)})`;
      return goal.types.length > 1 ? `${body}, member(${type}, [${goal.types.map(atom).join(', ')}])` : body;
    }
    case 'path': {
      const [from, to] = [prologVar(goal.from.name), prologVar(goal.to.name)];
      const [start, end] = goal.direction === 'in' ? [to, from] : [from, to];
      return `path(${prologVar(goal.rel.name)}, [${goal.types.map(atom).join(', ')}], ${start}, ${end}, ${goal.min}, ${goal.max})`;
    }
    case 'where':
      return `where(${renderExpr(goal.expr)})`;
    case 'rule':
      return `${atom(goal.name)}(${goal.args.map(renderExpr).join(', ')})`;
    case 'namedPath':
      return `path_of(${prologVar(goal.path.name)}, [${goal.nodes.map((node) => prologVar(node.name)).join(', ')}], [${goal.rels.map((rel) => prologVar(rel.name)).join(', ')}])`;
  }
}

/** The node the last expansion of a counted chain reaches (MatchPlan.distinctEnds): what is counted once. */
function distinctEndOf(counted: Goal[]): string {
  const last = counted.filter((goal) => goal.kind === 'edge').at(-1);
  if (last?.kind !== 'edge') throw new Error('invariant broken: distinct ends counted over goals with no expansion');
  return (last.access.kind === 'expand' && last.access.reversed ? last.from : last.to).name;
}

/** The plan line of a goal that is a step of its own: an access path, a filter, a rule call, a path binding. */
function planLine(goal: Goal): string[] {
  switch (goal.kind) {
    case 'node':
    case 'id':
    case 'prop': {
      if (!goal.scan) return [];
      const name = (goal.kind === 'prop' ? goal.element : goal.node).name.trim();
      const by = goal.kind === 'prop' ? `property ${goal.key}${goal.listed ? ', each value listed' : ''}` : goal.kind === 'id' ? 'id lookup' : goal.label === undefined ? 'all nodes' : `label ${goal.label}`;
      return [`scan ${name} by ${by} (~${Math.round(goal.scan.estimate)} rows)`];
    }
    case 'edge':
    case 'path': {
      const { access } = goal;
      const rel = goal.rel.name.trim();
      if (access.kind === 'expand') {
        const [source, target] = access.reversed ? [goal.to, goal.from] : [goal.from, goal.to];
        const types = goal.types.length ? ':' + goal.types.join('|') : '';
        const length = goal.kind === 'path' ? `*${goal.min}..${goal.max}` : '';
        return [`expand ${source.name.trim()} -[${rel}${types}${length}]- ${target.name.trim()} (~${access.estimate.toFixed(2)} per row)`];
      }
      return [`${access.kind === 'scanEdges' ? 'scan edges' : 'bound edge'} ${rel} (~${Math.round(access.estimate)} rows)`];
    }
    case 'where':
      return [`filter ${renderExpr(goal.expr)}`];
    case 'rule':
      return [`call ${goal.predicate.indicator} of rule module ${goal.predicate.module} in Prolog`];
    case 'namedPath':
      return [`bind path ${goal.path.name}`];
  }
}

function renderCreate(element: CreateElement): string {
  const properties = element.properties ? `, ${renderExpr(element.properties)}` : '';
  if (element.kind === 'node') return `create_node(${prologVar(element.node.name)}, [${element.labels.map(atom).join(', ')}]${properties})`;
  return `create_edge(${prologVar(element.rel.name)}, ${atom(element.type)}, ${prologVar(element.from.name)}, ${prologVar(element.to.name)}${properties})`;
}

/** A query variable as a Prolog variable: `V_name`, or `_A<n>` for an anonymous one. */
function prologVar(name: string): string {
  const trimmed = name.trim();
  if (trimmed.startsWith('anon')) return '_A' + trimmed.slice(4);
  return 'V_' + trimmed.replace(/[^A-Za-z0-9_]/g, '_');
}

function atom(text: string): string {
  return /^[a-z][A-Za-z0-9_]*$/.test(text) ? text : quoted(text);
}

function quoted(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

function renderExpr(expr: Expr): string {
  switch (expr.kind) {
    case 'literal':
      return typeof expr.value === 'string' ? quoted(expr.value) : expr.value === null ? 'null' : String(expr.value);
    case 'param':
      return `'$${expr.name}'`;
    case 'var':
      return prologVar(expr.name);
    case 'prop':
      return `prop_of(${renderExpr(expr.target)}, ${atom(expr.key)})`;
    case 'binary':
      return `${BINARY_NAMES[expr.op]}(${renderExpr(expr.left)}, ${renderExpr(expr.right)})`;
    case 'unary':
      return expr.op === 'NOT' ? `\\+ ${renderExpr(expr.operand)}` : `${expr.op === '-' ? 'neg' : 'pos'}(${renderExpr(expr.operand)})`;
    case 'isNull':
      return `${expr.negated ? 'is_not_null' : 'is_null'}(${renderExpr(expr.operand)})`;
    case 'call':
      return `${atom(expr.name)}(${expr.star ? '*' : expr.args.map(renderExpr).join(', ')})`;
    case 'list':
      return `[${expr.items.map(renderExpr).join(', ')}]`;
    case 'map':
      return `map([${expr.entries.map(([key, value]) => `${atom(key)}-${renderExpr(value)}`).join(', ')}])`;
    case 'labels':
      return expr.labels.map((label) => `node(${renderExpr(expr.target)}, ${atom(label)})`).join(', ');
    case 'pattern':
      return `exists(pattern)`;
    case 'patternSubquery':
      return `${expr.quantity}(pattern${expr.where ? `, ${renderExpr(expr.where)}` : ''})`;
    default:
      return `cypher(${expr.kind})`;
  }
}

const BINARY_NAMES: Record<string, string> = {
  OR: 'or', XOR: 'xor', AND: 'and', '=': 'eq', '<>': 'neq', '<': 'lt', '>': 'gt', '<=': 'le', '>=': 'ge', IN: 'in',
  'STARTS WITH': 'starts_with', 'ENDS WITH': 'ends_with', CONTAINS: 'contains', '=~': 'matches', '+': 'add', '-': 'sub',
  '*': 'mul', '/': 'div', '%': 'mod', '^': 'pow',
};
