import type { ExtractionPipeline } from '../../engine/extract/pipeline.ts';

/** The labels of the ends of each edge of `type` the full pipeline writes for `text`, dated `date`. */
export async function extractedRelations(pipeline: ExtractionPipeline, text: string, type: string, date: string): Promise<[string, string][]> {
  const { graph } = await pipeline.extract({ text, source: 'test.txt', document_date: date }, { tier: 'full', ingestedAt: `${date}T00:00:00Z` });
  const label = (id: string) => String(graph.nodes.find((node) => node.id === id)?.properties.label);
  return graph.edges.filter((edge) => edge.type === type).map((edge): [string, string] => [label(edge.from), label(edge.to)]);
}
