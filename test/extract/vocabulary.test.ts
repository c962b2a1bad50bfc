import { describe, expect, it } from 'vitest';
import { structureDocument, type StructuredDocument } from '../../engine/extract/structure/index.ts';
import { findConflictEntities } from '../../engine/extract/symbolic/index.ts';
import type { WorkspaceTier } from '../../engine/ontology/index.ts';

/** The symbolic layer's findings on one text, as quotes. */
function analyse(text: string) {
  const findings = findConflictEntities({ text, source: 'test', document_date: '2024-06-10' });
  const quote = (span: { start: number; end: number }) => text.slice(span.start, span.end);
  return {
    actors: findings.actors.map((actor) => [actor.text, actor.actor_type]),
    claims: findings.claims.map((claim) => claim.type),
    events: findings.events.map((event) => ({
      type: event.event_type,
      trigger: quote(event.trigger),
      participants: event.participants.map((p) => [quote(p), p.role]),
      ...(event.size !== undefined ? { size: event.size } : {}),
    })),
  };
}

/** The graph extraction writes for one text. */
function structured(text: string, tier: WorkspaceTier = 'full'): StructuredDocument {
  const findings = findConflictEntities({ text, source: 'test', document_date: '2024-06-10' });
  return structureDocument({
    document: { text, source: 'test.txt', document_date: '2024-06-10' }, documentId: 'document_test', sha256: 'e'.repeat(64), findings,
    neural: null, tier, extractor: 'parley-rules/test + none', ingestedAt: '2026-01-01T00:00:00.000Z',
  });
}
const nodesOf = (graph: StructuredDocument, kind: string) => graph.nodes.filter((node) => node.labels[0] === kind);
const edgesOf = (graph: StructuredDocument, type: string) => graph.edges.filter((edge) => edge.type === type);

describe('court rulings and laws passed', () => {
  it('"the court ruled that" is an ADJUDICATE event of the court; "ruled out" is none', () => {
    expect(analyse('The Supreme Court ruled that the election results were void.').events).toEqual([
      { type: 'ADJUDICATE', trigger: 'ruled that', participants: [['Supreme Court', 'perpetrator']] },
    ]);
    expect(analyse('The court sentenced opposition leader Kizza Besigye to seven years in prison.').events.map((e) => [e.type, e.participants])).toEqual([
      ['ADJUDICATE', [['The court', 'perpetrator'], ['Kizza Besigye', 'target']]],
    ]);
    expect(analyse('The Sudanese Armed Forces ruled out any truce with the RSF on Sunday.').events).toEqual([]);
  });

  it('"parliament passed a law" is a LEGISLATE event of the parliament', () => {
    expect(analyse("Uganda's parliament passed a law that criminalises homosexuality.")).toMatchObject({
      actors: [["Uganda's parliament", 'government']],
      events: [{ type: 'LEGISLATE', trigger: 'passed a law', participants: [["Uganda's parliament", 'perpetrator']] }],
    });
    expect(analyse('The junta enacted a decree dissolving all political parties.').events.map((e) => e.type)).toEqual(['LEGISLATE']);
  });
});

describe('companies, courts and police', () => {
  it('types them by their names', () => {
    expect(analyse('Kasai Mining Ltd said the eviction was lawful.').actors).toEqual([['Kasai Mining Ltd', 'company']]);
    expect(analyse('Glencore Holdings and Sino Petroleum Corporation signed the deal.').actors).toEqual([
      ['Glencore Holdings', 'company'], ['Sino Petroleum Corporation', 'company'],
    ]);
    expect(analyse('The International Court of Justice ordered Israel to prevent genocidal acts in Gaza.').actors).toContainEqual(['International Court of Justice', 'court']);
    expect(analyse('Ugandan police arrested opposition leader Bobi Wine in Kampala.').actors).toContainEqual(['Ugandan police', 'police']);
    expect(analyse('Police fired tear gas at the crowd.').actors).toEqual([['Police', 'police']]);
  });

  it('a court that acts is an adjudicator, not a party; police and companies that act are parties', () => {
    const graph = structured('The Supreme Court of Kenya ruled that Kasai Mining Ltd must compensate the villagers, and Kenyan police arrested two of its managers.');
    const roles = Object.fromEntries(nodesOf(graph, 'Actor').map((actor) => [actor.properties.label, [actor.properties.actor_type, actor.properties.role]]));
    expect(roles['Supreme Court of Kenya']).toEqual(['court', 'adjudicator']);
    expect(roles['Kasai Mining Ltd']).toEqual(['company', 'party']);
    expect(roles['Kenya police']).toEqual(['police', 'party']);
  });
});

describe('dehumanising claims', () => {
  it('calling a group vermin or cockroaches is a Dehumanization claim; being treated like animals is not', () => {
    expect(analyse('Kova Nationalist Party leader Daren Mull told a rally that the Tesh people were vermin.').claims).toEqual(['Dehumanization']);
    expect(analyse('A presenter on Radio Kova said the Tesh were cockroaches who had to be crushed.').claims).toEqual(['Dehumanization']);
    expect(analyse('Residents said the militia treated them like animals.').claims).not.toContain('Dehumanization');
    expect(analyse('The minister said the rebels were not animals but citizens.').claims).not.toContain('Dehumanization');
  });
});

describe('event size', () => {
  it('counts the crowd a protest or a strike names, and the least a vague number allows', () => {
    expect(analyse('A crowd of 5,000 demonstrators marched on the Ministry of Mines in Kinshasa.').events.map((e) => [e.type, e.size])).toEqual([['PROTEST', 5000]]);
    expect(analyse('Thousands of protesters rallied in Khartoum on Friday.').events.map((e) => [e.type, e.size])).toEqual([['PROTEST', 2000]]);
    expect(analyse('Tens of thousands of teachers went on strike in Lagos.').events.map((e) => [e.type, e.size])).toEqual([['PROTEST', 20000]]);
    expect(analyse('Protesters rallied in Khartoum on Friday.').events.map((e) => e.size)).toEqual([undefined]);
    // the people an attack kills are its victims, not its size
    expect(analyse('Gunmen attacked the village, killing 12 people.').events.map((e) => e.size)).toEqual([undefined]);
  });

  it('is written as the Event node\'s size', () => {
    const [event] = nodesOf(structured('Thousands of protesters rallied in Khartoum on Friday.'), 'Event');
    expect(event.properties).toMatchObject({ event_type: 'PROTEST', size: 2000 });
  });
});

describe('CONCERNS and REFERS_TO', () => {
  it('an interest stated in a claim about an issue CONCERNS that issue', () => {
    const graph = structured('The Tesh Council demanded new elections in order to ensure representation for the minorities of the valley.', 'standard');
    const [interest] = nodesOf(graph, 'Interest');
    expect(interest.properties.interest_type).toBe('participation');
    const concerns = edgesOf(graph, 'CONCERNS');
    expect(concerns.length).toBeGreaterThan(0);
    for (const edge of concerns) {
      expect(edge.from).toBe(interest.id);
      expect(nodesOf(graph, 'Issue').map((issue) => issue.id)).toContain(edge.to);
    }
  });

  it('a claim whose words report an event REFERS_TO it', () => {
    const graph = structured('The army said it attacked the camp in Geneina in self-defence.');
    const [claim] = nodesOf(graph, 'Claim');
    const [event] = nodesOf(graph, 'Event');
    expect(claim.properties.type).toBe('Justification');
    expect(edgesOf(graph, 'REFERS_TO').map((edge) => [edge.from, edge.to])).toEqual([[claim.id, event.id]]);
  });
});
