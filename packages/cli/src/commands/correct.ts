import type { Command } from 'commander';
import type { Correction, CorrectionRequest, EdgeTrace, NodeTrace, Provenance } from '@parley/client';
import { output, table, withClient } from '../context.ts';

/** One line for an audit record: what was done, to what, by which key, when, and why. */
function describeCorrection(correction: Correction): string {
  const what =
    correction.op === 'merge' ? `merge ${correction.from?.join(', ')} into ${correction.into}`
    : correction.op === 'retract' ? `retract ${correction.target_kind} ${correction.target}`
    : correction.op === 'retype' ? `retype ${correction.edge} ${correction.previous_type} -> ${correction.type}`
    : correction.op === 'set' ? `set ${correction.target} ${JSON.stringify(correction.properties)}`
    : `undo ${correction.undoes}`;
  return `${correction.correction_id}  ${what}${correction.undone_by ? ` (undone by ${correction.undone_by})` : ''}`;
}

function sourceLine(source: Provenance): string {
  const where = source.span ? ` [${source.span.start}-${source.span.end}]` : '';
  return `  ${source.timestamp}  ${source.source}${where}${source.quote ? `  "${source.quote}"` : ''}${source.extractor ? `  (${source.extractor})` : ''}`;
}

/** A traced node or edge as text: the record, its sources with their quotes, and the corrections that touched it. */
function describeTrace(trace: NodeTrace | EdgeTrace): string {
  const record = 'node' in trace ? trace.node : trace.edge;
  const head = 'node' in trace ? `${trace.node.id}  ${trace.node.labels.join(':')}  ${String(trace.node.properties.label ?? '')}` : `${trace.edge.id}  ${trace.edge.from} -[${trace.edge.type}]-> ${trace.edge.to}`;
  const lines = [`${head}${trace.retracted ? '  (retracted)' : ''}`];
  if (trace.aliases.length > 0) lines.push(`aliases: ${trace.aliases.join(', ')}`);
  const sources = record.provenance?.sources ?? [];
  lines.push(sources.length > 0 ? 'sources:' : 'sources: none recorded', ...sources.map(sourceLine));
  if (trace.corrections.length > 0) lines.push('corrections:', ...trace.corrections.map((correction) => `  ${describeCorrection(correction)}  "${correction.reason}"`));
  return lines.join('\n');
}

/** Sends a correction and prints its audit record. */
function sendCorrection(command: Command, graph: string, correction: CorrectionRequest): Promise<void> {
  return withClient(command, async (client) => {
    const made = await client.correct(graph, correction);
    output(command, made, () => describeCorrection(made));
  });
}

export function register(program: Command): void {
  const correct = program.command('correct').description("correct a graph: merge, retract, retype or set, each kept in the graph's audit and holding over later ingests");
  const reason = ['--reason <text>', 'why (kept in the audit)'] as const;
  correct
    .command('merge')
    .description('merge nodes into one; their ids stay as aliases of it')
    .argument('<graph>', 'the graph id')
    .argument('<into>', 'the node the others become')
    .argument('<from...>', 'the nodes merged into it')
    .requiredOption(...reason)
    .action((graph: string, into: string, from: string[], options: { reason: string }, command: Command) => sendCorrection(command, graph, { op: 'merge', into, from, reason: options.reason }));
  correct
    .command('retract')
    .description('take a node (with its edges) or an edge out of every query, assess and export; it stays traceable')
    .argument('<graph>', 'the graph id')
    .argument('<id>', 'the node or edge')
    .requiredOption(...reason)
    .action((graph: string, target: string, options: { reason: string }, command: Command) => sendCorrection(command, graph, { op: 'retract', target, reason: options.reason }));
  correct
    .command('retype')
    .description('give an edge another type, e.g. OPPOSES -> ALLIED_WITH')
    .argument('<graph>', 'the graph id')
    .argument('<edge>', 'the edge id')
    .argument('<type>', 'the edge type it becomes')
    .requiredOption(...reason)
    .action((graph: string, edge: string, type: string, options: { reason: string }, command: Command) => sendCorrection(command, graph, { op: 'retype', edge, type, reason: options.reason }));
  correct
    .command('set')
    .description('set properties of a node or edge, checked against the ontology')
    .argument('<graph>', 'the graph id')
    .argument('<id>', 'the node or edge')
    .argument('<properties>', 'the properties as a JSON object, e.g. \'{"role": "spoiler"}\'')
    .requiredOption(...reason)
    .action((graph: string, target: string, properties: string, options: { reason: string }, command: Command) =>
      sendCorrection(command, graph, { op: 'set', target, properties: JSON.parse(properties) as Record<string, unknown>, reason: options.reason }),
    );
  correct
    .command('list')
    .description("the graph's corrections and undos, newest first")
    .argument('<graph>', 'the graph id')
    .option('--page-size <n>', 'corrections per page (1-500)', '50')
    .option('--page-token <token>', 'the next_page_token of the page before')
    .action(async (graph: string, options: { pageSize: string; pageToken?: string }, command: Command) => {
      await withClient(command, async (client) => {
        const listed = await client.listCorrections(graph, { page_size: Number(options.pageSize), ...(options.pageToken ? { page_token: options.pageToken } : {}) });
        output(command, listed, () => {
          const rows = listed.corrections.map((correction) => [correction.created_at, correction.key_id, describeCorrection(correction), correction.reason]);
          return `${table(['created_at', 'key_id', 'correction', 'reason'], rows)}${listed.next_page_token ? `\nmore: --page-token ${listed.next_page_token}` : ''}`;
        });
      });
    });
  correct
    .command('undo')
    .description('undo a correction (the undo is recorded too)')
    .argument('<graph>', 'the graph id')
    .argument('<correction_id>', 'the correction (correct list)')
    .action(async (graph: string, correctionId: string, _options: object, command: Command) => {
      await withClient(command, async (client) => {
        const undo = await client.undoCorrection(graph, correctionId);
        output(command, undo, () => describeCorrection(undo));
      });
    });

  program
    .command('trace')
    .description('a node or edge with its sources (quotes, spans, dates) and the corrections that touched it')
    .argument('<graph>', 'the graph id')
    .argument('<id>', 'the node or edge id (an alias finds the node it was merged into)')
    .option('--edge', 'the id is an edge id (by default a node is looked for, then an edge)')
    .action(async (graph: string, id: string, options: { edge?: boolean }, command: Command) => {
      await withClient(command, async (client) => {
        const trace = options.edge ? await client.edge(graph, id) : await client.node(graph, id).catch(async (error: { status?: number }) => (error.status === 404 ? client.edge(graph, id) : Promise.reject(error)));
        output(command, trace, () => describeTrace(trace));
      });
    });
}
