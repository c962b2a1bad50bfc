import { afterAll, describe, expect, it } from 'vitest';
import { createExtractionPipeline } from '../../engine/extract/pipeline.ts';
import type { StructuredDocument, StructuredNode } from '../../engine/extract/structure/index.ts';

/**
 * Who a mention stands for across a document (issue 9): descriptions of a government,
 * role titles, and mentions of one event. Short paragraphs written for the purpose.
 */

const pipeline = createExtractionPipeline();
afterAll(() => pipeline.close());

async function graphOf(text: string): Promise<StructuredDocument> {
  return (await pipeline.extract({ text, source: 'resolution.txt' }, { tier: 'full', ingestedAt: '2025-03-01T00:00:00Z' })).graph;
}

function nodes(graph: StructuredDocument, kind: string): StructuredNode[] {
  return graph.nodes.filter((node) => node.labels[0] === kind);
}

function actorLabelled(graph: StructuredDocument, label: string): StructuredNode {
  const found = nodes(graph, 'Actor').find((node) => node.properties.label === label);
  if (!found) throw new Error(`no actor '${label}' among ${nodes(graph, 'Actor').map((node) => node.properties.label).join(', ')}`);
  return found;
}

/** Claim text → the label of the actor asserting it (null when nobody does). */
function speakers(graph: StructuredDocument): Record<string, string | null> {
  const labels = new Map(nodes(graph, 'Actor').map((node) => [node.id, node.properties.label as string]));
  const result: Record<string, string | null> = {};
  for (const claim of nodes(graph, 'Claim')) {
    const asserts = graph.edges.find((edge) => edge.type === 'ASSERTS' && edge.to === claim.id);
    result[claim.properties.text as string] = asserts ? labels.get(asserts.from)! : null;
  }
  return result;
}

describe('a government named by a description ("the junta", "the military government")', () => {
  it('becomes an actor of its own when the text names it only so, and its claims have that speaker (Myanmar)', async () => {
    const graph = await graphOf(
      'The junta said it would never hand back the town of Lashio to the Myanmar National Democratic Alliance Army. ' +
        'China said the military government had agreed to a ceasefire in northern Shan State. ' +
        'The regime denied that its aircraft bombed a school in Sagaing.',
    );
    const junta = actorLabelled(graph, 'Government of Myanmar');
    expect(junta.properties.actor_type).toBe('government');
    const china = actorLabelled(graph, 'China');
    const bySpeaker = speakers(graph);
    expect(bySpeaker).toMatchObject({
      'it would never hand back the town of Lashio to the Myanmar National Democratic Alliance Army': 'Government of Myanmar',
      'The regime denied that its aircraft bombed a school in Sagaing': 'Government of Myanmar',
    });
    // "the military government" in China's sentence is the junta, never China.
    const ceasefire = nodes(graph, 'Event').find((event) => event.properties.event_type === 'AGREE')!;
    const parties = graph.edges.filter((edge) => edge.type === 'PARTICIPATES_IN' && edge.to === ceasefire.id).map((edge) => edge.from);
    expect(parties).toContain(junta.id);
    expect(parties).not.toContain(china.id);
    expect(Object.values(bySpeaker)).not.toContain(null);
  });

  it('is not a state of another country named before it (Tigray)', async () => {
    const graph = await graphOf(
      'ADDIS ABABA, 2 February 2025 - Eritrea denied that its troops remained in Tigray. ' +
        "The federal government said the Tigray People's Liberation Front must disarm before any talks in Mekelle. " +
        'The TPLF said it would never hand back the town of Alamata.',
    );
    expect(actorLabelled(graph, 'Government of Ethiopia').properties.actor_type).toBe('government');
    expect(speakers(graph)).toMatchObject({
      'Eritrea denied that its troops remained in Tigray': 'Eritrea',
      "the Tigray People's Liberation Front must disarm before any talks in Mekelle": 'Government of Ethiopia',
      'it would never hand back the town of Alamata': "Tigray People's Liberation Front",
    });
  });

  it('is placed by where things happen, not by the dateline where the report was filed', async () => {
    const graph = await graphOf(
      'LUANDA, 4 August 2024 - Angola said a verification mechanism would monitor the truce. On 20 August 2024 the M23 clashed with the army in Rutshuru. ' +
        'The government demanded that the M23 withdraw to its earlier positions.',
    );
    expect(speakers(graph)).toMatchObject({ 'The government demanded that the M23 withdraw to its earlier positions': 'Government of DR Congo' });
  });

  it('is the government of the nationality its own clause names, over the country of the document\'s places', async () => {
    const graph = await graphOf(
      'Ministers met in Luanda, Benguela and Huambo on Sunday. The Angolan presidency said the talks would continue. ' +
        'The Congolese delegation said the government would never negotiate with the M23. ' +
        'Rwandan officials said the government had failed to disarm the FDLR. Later the government said it would attend the next round.',
    );
    const angola = actorLabelled(graph, 'Government of Angola');
    const congo = actorLabelled(graph, 'Government of DR Congo');
    expect(speakers(graph)).toMatchObject({
      'the government would never negotiate with the M23': 'Government of DR Congo',
      // No nationality in its sentence: the country of the document's places.
      'it would attend the next round': 'Government of Angola',
    });
    // The Rwandan officials' "the government" is Rwanda's, which the text never names: nobody, never Angola or DR Congo.
    const quotes = (node: StructuredNode) => node.provenance.map((record) => record.span!.start);
    const rwandan = 'Ministers met in Luanda, Benguela and Huambo on Sunday. The Angolan presidency said the talks would continue. The Congolese delegation said the government would never negotiate with the M23. Rwandan officials said '.length;
    expect([...quotes(angola), ...quotes(congo)]).not.toContain(rwandan);
    expect(nodes(graph, 'Actor').map((node) => node.properties.label)).not.toContain('Government of Rwanda');
  });

  it('takes a country name inside another actor\'s name as its nationality, but not a country acting as a party', async () => {
    const delegation = await graphOf('Fighting continued in Luanda and Huambo. The DRC delegation said the government would never cede Goma to the rebels.');
    expect(actorLabelled(delegation, 'Government of DR Congo').provenance.map((record) => record.quote)).toEqual(['DRC delegation', 'the government']);
    const party = await graphOf('Fighting continued in Lashio and Mandalay. Thailand said the junta would never cede Lashio to the rebels.');
    expect(actorLabelled(party, 'Government of Myanmar').provenance.map((record) => record.quote)).toEqual(['the junta']);
    expect(nodes(party, 'Actor').map((node) => node.properties.label)).not.toContain('Government of Thailand');
  });

  it('refers back to the government the document named, in one node', async () => {
    const graph = await graphOf(
      "Myanmar's military government said it would not negotiate with the Arakan Army. Thailand urged the junta to release prisoners held in Sittwe. The junta accused the Arakan Army of attacking civilians.",
    );
    const governments = nodes(graph, 'Actor').filter((node) => node.properties.actor_type === 'government');
    expect(governments.map((node) => node.properties.label)).toEqual(['Government of Myanmar']);
    expect(speakers(graph)).toMatchObject({
      'Thailand urged the junta to release prisoners held in Sittwe': 'Thailand',
      'The junta accused the Arakan Army of attacking civilians': 'Government of Myanmar',
    });
    // Thailand's demand targets the junta, not Thailand itself.
    const demand = nodes(graph, 'Claim').find((claim) => claim.properties.type === 'Demand')!;
    const targets = graph.edges.filter((edge) => edge.type === 'TARGETS' && edge.from === demand.id).map((edge) => edge.to);
    expect(targets).toEqual([governments[0].id]);
  });

  it('a junta in a text that points to no country is still a speaker; a bare "the government" stays unresolved', async () => {
    const junta = await graphOf('The junta said it would never negotiate with the rebels.');
    expect(speakers(junta)).toEqual({ 'it would never negotiate with the rebels': 'Military government' });
    const government = await graphOf('The government said it would never negotiate with the rebels.');
    expect(nodes(government, 'Actor')).toEqual([]);
  });
});

describe('role titles stand for the person named with that title nearby', () => {
  it('"the Foreign Secretary" after "Foreign Secretary David Lammy" is that person, who speaks and meets', async () => {
    const graph = await graphOf(
      'Foreign Secretary David Lammy arrived in Kyiv on Monday. The Foreign Secretary said Britain would never recognise the annexation of Crimea. ' +
        'Later the Foreign Secretary met President Volodymyr Zelensky in Kyiv.',
    );
    const lammy = actorLabelled(graph, 'David Lammy');
    expect(nodes(graph, 'Actor').map((node) => node.properties.label)).not.toContain('Foreign Secretary');
    expect(speakers(graph)).toEqual({ 'Britain would never recognise the annexation of Crimea': 'David Lammy' });
    const meeting = nodes(graph, 'Event').find((event) => event.properties.event_type === 'CONSULT')!;
    expect(graph.edges.some((edge) => edge.type === 'PARTICIPATES_IN' && edge.from === lammy.id && edge.to === meeting.id)).toBe(true);
    // The office is not the person's name: the next Foreign Secretary must not land on this node.
    expect(lammy.properties.aliases).not.toContain('Foreign Secretary');
    expect(lammy.provenance.map((record) => record.quote)).toEqual(['David Lammy', 'Foreign Secretary', 'Foreign Secretary']);
  });

  it('"the secretary said" after a quotation is the secretary named before; "the general" is the general', async () => {
    const graph = await graphOf(
      'Defence Secretary John Healey visited British troops in Estonia on Tuesday. "Russia must withdraw its forces from Ukraine," the secretary said. ' +
        'Lt. Gen. Ahmed Salim commanded the brigade in Gao. "We will never surrender Kidal," the general said. The general election was postponed.',
    );
    expect(speakers(graph)).toEqual({
      'Russia must withdraw its forces from Ukraine': 'John Healey',
      'We will never surrender Kidal': 'Ahmed Salim',
    });
    expect(nodes(graph, 'Actor').filter((node) => node.properties.actor_type === 'individual').map((node) => node.properties.label).sort()).toEqual([
      'Ahmed Salim', 'John Healey',
    ]);
  });

  it('a title with no holder named before it stays an office, and a lower-case role is nobody', async () => {
    const graph = await graphOf('"The Front must disarm," the secretary said. The Foreign Secretary met the envoy. Foreign Secretary David Lammy left on Friday.');
    expect(speakers(graph)).toEqual({ 'The Front must disarm': null });
    expect(nodes(graph, 'Actor').map((node) => node.properties.label).sort()).toEqual(['David Lammy', 'Foreign Secretary']);
  });
});

describe('how far a title looks back for its holder', () => {
  const filler = (n: number) => Array.from({ length: n }, (_, k) => `Aid convoy ${k + 1} reached the camp.`).join(' ');

  it('finds the holder mentioned within the window, by any name, and nobody beyond it', async () => {
    const near = await graphOf(`Foreign Secretary David Lammy arrived in Kyiv. ${filler(4)} The Foreign Secretary said Britain would never recognise the annexation.`);
    expect(speakers(near)).toEqual({ 'Britain would never recognise the annexation': 'David Lammy' });
    const renamed = await graphOf(`Foreign Secretary David Lammy arrived in Kyiv. ${filler(4)} Lammy visited Odesa. ${filler(4)} The Foreign Secretary said Britain would never recognise the annexation.`);
    expect(speakers(renamed)).toEqual({ 'Britain would never recognise the annexation': 'David Lammy' });
    const far = await graphOf(`Foreign Secretary David Lammy arrived in Kyiv. ${filler(6)} The Foreign Secretary said Britain would never recognise the annexation.`);
    expect(speakers(far)).toEqual({ 'Britain would never recognise the annexation': 'Foreign Secretary' });
    const lowerCase = await graphOf(`Defence Secretary John Healey visited Tallinn. ${filler(6)} "Russia must withdraw its forces," the secretary said.`);
    expect(speakers(lowerCase)).toEqual({ 'Russia must withdraw its forces': null });
  });

  it('resolves nobody when two different persons hold the title within the window', async () => {
    const graph = await graphOf(
      'President Felix Tshisekedi met President Paul Kagame in Luanda. The President said the M23 must withdraw from Goma. ' +
        '"We will never negotiate with the M23," the president said.',
    );
    expect(speakers(graph)).toEqual({ 'the M23 must withdraw from Goma': 'President', 'We will never negotiate with the M23': null });
    const labels = nodes(graph, 'Actor').map((node) => node.properties.label);
    expect(actorLabelled(graph, 'Félix Tshisekedi').provenance.map((record) => record.quote)).toEqual(['Felix Tshisekedi']);
    expect(actorLabelled(graph, 'Paul Kagame').provenance.map((record) => record.quote)).toEqual(['Paul Kagame']);
    expect(labels).toContain('President');
  });
});

describe('the subject of coordinated acts', () => {
  it('"The Foreign Secretary met X and said ..." is said by the Foreign Secretary named before, not by X', async () => {
    const graph = await graphOf(
      'Foreign Secretary David Lammy arrived in Kyiv on Monday. ' +
        'The Foreign Secretary met President Volodymyr Zelensky and said Britain would never recognise the annexation of Crimea. ' +
        'General Ahmed Salim visited troops in Gao and warned that the army would retake Kidal.',
    );
    expect(speakers(graph)).toEqual({
      'Britain would never recognise the annexation of Crimea': 'David Lammy',
      'warned that the army would retake Kidal': 'Ahmed Salim',
    });
  });

  it('an act\'s place, date and partners stop at the next coordinated act', async () => {
    const graph = await graphOf(
      'Foreign Secretary David Lammy met President Volodymyr Zelensky and said Britain would never recognise the annexation of Crimea. ' +
        'The RSF attacked Tambul, and on 25 October 2024 the RSF attacked the town of Kabkabiya.',
    );
    const byType = (type: string) => nodes(graph, 'Event').filter((event) => event.properties.event_type === type);
    const [meeting] = byType('CONSULT');
    expect(meeting.properties.label).toBe('met President Volodymyr Zelensky');
    expect(graph.edges.some((edge) => edge.type === 'OCCURRED_AT' && edge.from === meeting.id)).toBe(false);
    expect(byType('ASSAULT').map((event) => event.properties.date ?? null)).toEqual([null, '2024-10-25']);
  });

  it('a capitalised verb inside a sentence is no act: an undated "3 March" is not a march', async () => {
    const graph = await graphOf('On 3 March the M23 shelled Sake. Protesters march in Goma every Friday.');
    expect(nodes(graph, 'Event').map((event) => event.properties.event_type).sort()).toEqual(['ASSAULT', 'PROTEST']);
  });
});

describe('speakers described between commas, and the labels countries get', () => {
  it('"X, the AU\'s mediator, proposed" and "X, which backs Y, denied" are said by X; "..., which Kigali denied" by Kigali', async () => {
    const graph = await graphOf(
      "President Joao Lourenco, the African Union's mediator, proposed a summit in Luanda. Rwanda, which backs the M23, denied the accusation. " +
        'Kinshasa accused Rwanda of backing the M23, which Kigali denied.',
    );
    expect(speakers(graph)).toEqual({
      "President Joao Lourenco, the African Union's mediator, proposed a summit in Luanda": 'Joao Lourenco',
      'Rwanda, which backs the M23, denied the accusation': 'Rwanda',
      'Kinshasa accused Rwanda of backing the M23': 'Government of DR Congo',
      'which Kigali denied': 'Government of Rwanda',
    });
  });

  it('the subject of a demand no verb of speech reports is whom it is made of, not who makes it', async () => {
    const graph = await graphOf('Displaced people must be allowed to return to Masisi. The M23 must withdraw from Rutshuru, the United States said.');
    expect(speakers(graph)).toEqual({ 'Displaced people must be allowed to return to Masisi': null, 'The M23 must withdraw from Rutshuru': 'United States' });
  });

  it('a country is labelled by its common name, never an acronym', async () => {
    const graph = await graphOf('The UAE denied arming the RSF. The Netherlands urged a ceasefire. The United States said it would continue its mediation.');
    const states = nodes(graph, 'Actor').filter((node) => node.properties.actor_type === 'state').map((node) => node.properties.label);
    expect(states.sort()).toEqual(['Netherlands', 'United Arab Emirates', 'United States']);
  });
});

describe('one event per occurrence', () => {
  const events = (graph: StructuredDocument) => nodes(graph, 'Event');
  const placeOf = (graph: StructuredDocument, event: StructuredNode) => {
    const edge = graph.edges.find((candidate) => candidate.type === 'OCCURRED_AT' && candidate.from === event.id);
    return graph.nodes.find((node) => node.id === edge?.to)?.properties.label;
  };

  it('"a drone strike hit X ... the strike killed five" is one Event grounded on both sentences; another strike elsewhere is another', async () => {
    const text =
      'A drone strike hit a market in Mekelle on 2 February 2025. The strike killed five civilians, the regional health bureau said. ' +
      'A second drone strike hit a school in Gondar on 3 February 2025.';
    const graph = await graphOf(text);
    const found = events(graph);
    expect(found.map((event) => [event.properties.event_type, event.properties.date, placeOf(graph, event)])).toEqual([
      ['ASSAULT', '2025-02-02', 'Mekelle'],
      ['ASSAULT', '2025-02-03', 'Gondar'],
    ]);
    const secondSentence = text.indexOf('The strike killed');
    const quotes = found[0].provenance.map((record) => record.quote ?? '');
    expect(quotes.some((quote) => quote.includes('hit a market'))).toBe(true);
    expect(found[0].provenance.some((record) => record.span!.start >= secondSentence && (record.quote ?? '').includes('killed'))).toBe(true);
    for (const record of found[0].provenance) expect(text.slice(record.span!.start, record.span!.end)).toBe(record.quote);
    expect(found[1].provenance.every((record) => record.span!.start > secondSentence)).toBe(true);
  });

  it('mentions whose actors swap sides are two events, even in one sentence', async () => {
    const graph = await graphOf('The Rapid Support Forces shelled the Sudanese Armed Forces in El Fasher, and the Sudanese Armed Forces shelled the Rapid Support Forces in El Fasher.');
    expect(events(graph)).toHaveLength(2);
  });

  it('the same verb twice in one sentence is two acts, even with no place known', async () => {
    const graph = await graphOf('On 22 October 2024 RSF fighters attacked Tambul, and on 25 October 2024 the RSF attacked Al-Sireha.');
    expect(events(graph).filter((event) => event.properties.event_type === 'ASSAULT')).toHaveLength(2);
  });

  it('a definite mention of another date is another occurrence', async () => {
    const graph = await graphOf('Israeli forces carried out strikes on Hezbollah targets in southern Lebanon on 3 May 2024. The strikes killed 12 fighters. On 9 June 2024 the strikes resumed in southern Lebanon.');
    const found = events(graph).filter((event) => event.properties.event_type === 'ASSAULT');
    expect(found.map((event) => event.properties.date)).toEqual(['2024-05-03', ...found.slice(1).map(() => expect.not.stringMatching(/^2024-05-03$/))]);
    expect(found[0].provenance).toHaveLength(2);
  });
});
