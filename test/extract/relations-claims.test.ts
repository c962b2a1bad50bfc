import { afterAll, describe, expect, it } from 'vitest';
import { createExtractionPipeline } from '../../engine/extract/pipeline.ts';

/**
 * Issue 25: oppositions the pipeline reads from what actors say and report. An accusation sets
 * the accuser against the accused; a threat, a condemnation or a report of someone else's act does not.
 */
const pipeline = createExtractionPipeline();
afterAll(() => pipeline.close());

/** The OPPOSES and ALLIED_WITH edges of one text, as [type, from label, to label]. */
async function sides(text: string): Promise<[string, string, string][]> {
  const { graph } = await pipeline.extract({ text, source: 'test.txt', document_date: '2024-06-10' }, { tier: 'full', ingestedAt: '2024-06-10T00:00:00Z' });
  const label = (id: string) => String(graph.nodes.find((node) => node.id === id)?.properties.label);
  return graph.edges
    .filter((edge) => edge.type === 'OPPOSES' || edge.type === 'ALLIED_WITH')
    .map((edge): [string, string, string] => [edge.type, label(edge.from), label(edge.to)])
    .sort((a, b) => a.join().localeCompare(b.join()));
}

describe('oppositions from claims and reports', () => {
  it('sets an accuser against the accused, whatever the accusation; a charge of support also states the alleged link', async () => {
    expect(await sides('The Sudanese army accused the RSF of shelling the camp.')).toContainEqual(['OPPOSES', 'Sudanese Armed Forces', 'Rapid Support Forces']);
    expect(await sides('The Tatmadaw blamed the Arakan Army for the deaths of 30 villagers.')).toContainEqual(['OPPOSES', 'Tatmadaw', 'Arakan Army']);
    const arming = await sides('Kinshasa accused Rwanda of supporting the M23.');
    expect(arming.filter(([type]) => type === 'OPPOSES').map(([, from, to]) => [from, to])).toEqual([['Government of DR Congo', 'Rwanda']]);
    expect(arming).toContainEqual(['ALLIED_WITH', 'Rwanda', 'M23']);
  });

  it('makes no monitor a party by its accusation: a rights group, the UN, or who speaks for them', async () => {
    expect(await sides('Human Rights Watch accused the RSF of killing civilians in El Geneina.')).toEqual([]);
    expect(await sides('The UN Human Rights Office accused the Houthis of shelling Taiz.')).toEqual([]);
    const envoy = await sides('Jeremy Laurence, a spokesman for the UN Human Rights Office, accused the Houthis of shelling Taiz.');
    expect(envoy.filter(([type]) => type === 'OPPOSES')).toEqual([]);
  });

  it('sets the accuser against the accused only, not against whom the charge names', async () => {
    const relayed = await sides('The Government of Sudan rejected the participation of the United Arab Emirates, which it accuses of arming the RSF.');
    expect(relayed.filter(([type, , to]) => type === 'OPPOSES' && to === 'Rapid Support Forces')).toEqual([]);
    const mutual = await sides('The M23 and the FARDC accused each other of violating the ceasefire.');
    expect(mutual.filter(([type]) => type === 'OPPOSES').map(([, from, to]) => [from, to].sort())).toEqual([['Armed Forces of the Democratic Republic of the Congo', 'M23']]);
  });

  it('reads no opposition from a threat or a condemnation', async () => {
    expect(await sides('The Houthis threatened to strike Saudi Arabia if the blockade continued.')).toEqual([]);
    expect(await sides('The Security Council condemned the M23 offensive near Goma.')).toEqual([]);
  });

  it('never makes whoever reports an attack a party to it', async () => {
    const reported = await sides('UNICEF said that children had been killed in the shelling of El Fasher by the RSF.');
    expect(reported.filter(([, from, to]) => from === 'UNICEF' || to === 'UNICEF')).toEqual([]);
  });
});
