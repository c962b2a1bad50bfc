import { createExtractionPipeline, type ExtractionPipeline } from '../../../engine/extract/pipeline.ts';
import type { StructuredDocument, StructuredNode } from '../../../engine/extract/structure/index.ts';

/**
 * The pipeline's structured result on documents written for issue 25's coreference tests, and
 * the questions a scorer asks of it: which node the text at a span refers to (its provenance),
 * who asserts a claim (the Claim's `speaker` and its ASSERTS edge).
 */

export function coreferencePipeline(): { graphOf(text: string): Promise<StructuredDocument>; close(): Promise<void> } {
  const pipeline: ExtractionPipeline = createExtractionPipeline();
  return {
    graphOf: async (text) => (await pipeline.extract({ text, source: 'coreference.txt' }, { tier: 'full', ingestedAt: '2025-03-01T00:00:00Z' })).graph,
    close: () => pipeline.close(),
  };
}

export function actors(graph: StructuredDocument): StructuredNode[] {
  return graph.nodes.filter((node) => node.labels[0] === 'Actor');
}

export function actorLabelled(graph: StructuredDocument, label: string): StructuredNode {
  const found = actors(graph).find((node) => node.properties.label === label);
  if (!found) throw new Error(`no actor '${label}' among ${actors(graph).map((node) => node.properties.label).join(', ')}`);
  return found;
}

/**
 * The label of the actor whose provenance holds `needle` where it first appears inside the
 * first appearance of `context` in `text` (undefined: no actor's does).
 */
export function referentOf(graph: StructuredDocument, text: string, needle: string, context = needle): string | undefined {
  const at = text.indexOf(context);
  const offset = context.indexOf(needle);
  if (at === -1 || offset === -1) throw new Error(`'${needle}' in '${context}' not in the text`);
  const start = at + offset;
  const end = start + needle.length;
  const node = actors(graph).find((actor) => actor.provenance.some((record) => record.span?.start === start && record.span?.end === end));
  return node?.properties.label as string | undefined;
}

/** Claim text → the label of its speaker (the Claim's `speaker` property, checked against its ASSERTS edge), null when nobody. */
export function speakers(graph: StructuredDocument): Record<string, string | null> {
  const labels = new Map(actors(graph).map((node) => [node.id, node.properties.label as string]));
  const result: Record<string, string | null> = {};
  for (const claim of graph.nodes.filter((node) => node.labels[0] === 'Claim')) {
    const asserts = graph.edges.find((edge) => edge.type === 'ASSERTS' && edge.to === claim.id);
    if ((asserts?.from ?? null) !== (claim.properties.speaker ?? null)) throw new Error(`claim '${claim.properties.text}': speaker and ASSERTS disagree`);
    result[claim.properties.text as string] = asserts ? labels.get(asserts.from)! : null;
  }
  return result;
}
