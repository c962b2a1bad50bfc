import { afterAll, describe, expect, it } from 'vitest';
import { createExtractionPipeline } from '../../engine/extract/pipeline.ts';

/**
 * Issue 25: a person introduced by an office of a UN body ("The head of MONUSCO, X,") speaks
 * for that body, so her accusation reports, as the body's would: no OPPOSES of hers.
 */
const pipeline = createExtractionPipeline();
afterAll(() => pipeline.close());

async function edges(text: string): Promise<[string, string, string][]> {
  const { graph } = await pipeline.extract({ text, source: 'test.txt', document_date: '2025-02-04' }, { tier: 'full', ingestedAt: '2025-02-04T00:00:00Z' });
  const label = (id: string) => String(graph.nodes.find((node) => node.id === id)?.properties.label);
  return graph.edges
    .filter((edge) => ['OPPOSES', 'ALLIED_WITH', 'MEMBER_OF'].includes(edge.type))
    .map((edge): [string, string, string] => [edge.type, label(edge.from), label(edge.to)]);
}

describe('the office a person holds, named before her', () => {
  it('makes her accusation a monitor\'s report, not her opposition', async () => {
    const found = await edges('The head of MONUSCO, Bintou Keita, told the Security Council on Tuesday that fighting had reached Sake. She also accused the M23 of shelling displacement sites.');
    expect(found).toContainEqual(['MEMBER_OF', 'Bintou Keita', 'MONUSCO']);
    expect(found.filter(([type, from]) => type === 'OPPOSES' && from === 'Bintou Keita')).toEqual([]);
  });
});

describe('a speaker reached through a pronoun', () => {
  it('is never the party its own clause names later, so no opposition is read from its accusation', async () => {
    const found = await edges('The Syrian Democratic Forces said they had captured the village of Abu Hamam from ISIS. The group said Turkish shelling had hit its positions near Manbij. It accused Turkey of helping ISIS.');
    expect(found.filter(([type, from]) => type === 'OPPOSES' && from === 'Islamic State')).toEqual([]);
  });
});

describe('an accused reached through a description', () => {
  it('is no opposition when the description\'s antecedent shares its sentence with another party of its kind', async () => {
    const found = await edges('Hezbollah said its fighters had killed five members of Islamic State near Arsal. The Lebanese army accused the group of smuggling weapons across the border.');
    expect(found.filter(([type, from]) => type === 'OPPOSES' && from === 'Lebanese Armed Forces')).toEqual([]);
    const named = await edges('Hezbollah said its fighters had killed five civilians near Arsal. The Lebanese army accused the group of smuggling weapons across the border.');
    expect(named).toContainEqual(['OPPOSES', 'Lebanese Armed Forces', 'Hezbollah']);
  });
});

describe('relations between named actors only', () => {
  it('states none with a party the document only describes ("the junta", "regime forces")', async () => {
    expect((await edges('The junta in Niamey accused France of backing jihadist groups.')).filter(([type]) => type === 'OPPOSES')).toEqual([]);
    expect(await edges('Iran supports Hezbollah, which fights alongside regime forces.')).toEqual([['ALLIED_WITH', 'Iran', 'Hezbollah']]);
  });
});
