import { describe, expect, it } from 'vitest';
import { byMonth, byType, type EventRow } from '../../packages/console/src/events.ts';
import { csv, csvCell, graphMl, jsonLines, shownCsv, shownOf, type QueryAnswer } from '../../packages/console/src/model.ts';
import { SEARCH_LIMIT, searchQuery } from '../../packages/console/src/search.ts';

const answer: QueryAnswer = {
  actors: [{ id: 'b', label: 'Rapid "Support", Forces', role: 'party', confidence: 0.9 }, { id: 'a', label: '<img src=x onerror=alert(1)>', role: 'observer', confidence: 0.4 }],
  claims: [{ id: 'c', type: 'Accusation', text: '=HYPERLINK("http://x")', status: 'disputed' }],
  edges: [
    { id: 'e2', from: 'b', to: 'c', type: 'TARGETS', confidence: 1 },
    { id: 'e1', from: 'a', to: 'b', type: 'OPPOSES', confidence: 0.5 },
    { id: 'dangling', from: 'a', to: 'nowhere', type: 'OPPOSES', confidence: 0.5 },
  ],
  nodes: [{ id: 'k', kind: 'Location', labels: ['Location'], properties: { label: 'Khartoum & <Omdurman>' }, confidence: 1 }],
  columns: [],
  rows: [],
};

describe('what the console exports', () => {
  it('shows each node and edge once, sorted by id, leaving edges whose ends are not shown', () => {
    const shown = shownOf(answer);
    expect(shown.nodes.map((node) => node.id)).toEqual(['a', 'b', 'c', 'k']);
    expect(shown.edges.map((edge) => edge.id)).toEqual(['e1', 'e2']);
    expect(shown.nodes.find((node) => node.id === 'c')!.label).toBe('Accusation: =HYPERLINK("http://x")');
    // a claim's status is computed by the server, not a property to import back
    expect(shown.nodes.find((node) => node.id === 'c')!.properties).toEqual({ type: 'Accusation', text: '=HYPERLINK("http://x")' });
  });

  it("an actor returned whole in the rows keeps its every property (its actor type colours it)", () => {
    const rows = [[{ id: 'b', labels: ['Actor'], properties: { label: 'Rapid "Support", Forces', role: 'party', actor_type: 'armed_group', aliases: ['RSF'] } }, 'not a node']];
    const actor = shownOf({ ...answer, columns: ['a', 'x'], rows }).nodes.find((node) => node.id === 'b')!;
    expect(actor.properties).toEqual({ label: 'Rapid "Support", Forces', role: 'party', actor_type: 'armed_group', aliases: ['RSF'] });
    expect(shownOf(answer).nodes.find((node) => node.id === 'b')!.properties).toEqual({ label: 'Rapid "Support", Forces', role: 'party' });
  });

  it('CSV quotes what needs quoting and defuses spreadsheet formulas', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a, "b"')).toBe('"a, ""b"""');
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell(null)).toBe('');
    expect(csvCell({ id: 'x' })).toBe('"{""id"":""x""}"');
    expect(csv(['x', 'y'], [[1, 'line\nbreak']])).toBe('x,y\r\n1,"line\nbreak"\r\n');
  });

  it('CSV of a table writes its columns; of records, the nodes then the edges', () => {
    expect(shownCsv(shownOf(answer), { columns: ['actor'], rows: [['A'], ['B']] })).toBe('actor\r\nA\r\nB\r\n');
    const lines = shownCsv(shownOf(answer)).split('\r\n');
    expect(lines[0]).toBe('id,kind,label,confidence');
    expect(lines).toContain('b,Actor,"Rapid ""Support"", Forces",0.9');
    expect(lines).toContain('id,type,from,to,confidence');
    expect(lines).toContain('e1,OPPOSES,a,b,0.5');
  });

  it('GraphML escapes markup in labels and ids', () => {
    const xml = graphMl(shownOf(answer));
    expect(xml).toContain('<data key="label">&lt;img src=x onerror=alert(1)&gt;</data>');
    expect(xml).toContain('<data key="label">Khartoum &amp; &lt;Omdurman&gt;</data>');
    expect(xml).toContain('<edge id="e1" source="a" target="b"><data key="type">OPPOSES</data>');
    expect(xml).not.toContain('<img');
  });

  it("JSON Lines are import's records, one per line", () => {
    const records = jsonLines(shownOf(answer)).trim().split('\n').map((line) => JSON.parse(line));
    expect(records[0]).toEqual({ node: { kind: 'Actor', id: 'a', label: '<img src=x onerror=alert(1)>', role: 'observer', confidence: 0.4 } });
    expect(records.at(-1)).toEqual({ edge: { type: 'TARGETS', id: 'e2', from: 'b', to: 'c', confidence: 1 } });
    expect(records).toHaveLength(6);
  });
});

describe('the timeline by month', () => {
  const event = (id: string, date: string | null, fatalities: number | null = null): EventRow => ({ id, type: 'ASSAULT', date, fatalities, label: null, place: null, country: null });

  it('counts each month between the first and the last, empty months included, undated events left out', () => {
    const months = byMonth([event('a', '2024-11-03', 2), event('b', '2025-01-20T10:00:00Z', 5), event('c', '2024-11-30'), event('d', null, 100)]);
    expect(months.map((month) => [month.month, month.events.length, month.fatalities])).toEqual([
      ['2024-11', 2, 2],
      ['2024-12', 0, 0],
      ['2025-01', 1, 5],
    ]);
    expect(byMonth([event('d', null)])).toEqual([]);
  });
});

describe('the timeline by type', () => {
  const event = (id: string, type: string, fatalities: number | null = null): EventRow => ({ id, type, date: '2024-01-01', fatalities, label: null, place: null, country: null });

  it('counts events and the dead per type, the most frequent first, ties by name', () => {
    expect(byType([event('a', 'PROTEST'), event('b', 'ASSAULT', 4), event('c', 'ASSAULT', 1), event('d', 'COERCE'), event('e', '', 2)])).toEqual([
      { type: 'ASSAULT', events: 2, fatalities: 5 },
      { type: 'COERCE', events: 1, fatalities: 0 },
      { type: 'PROTEST', events: 1, fatalities: 0 },
      { type: 'untyped', events: 1, fatalities: 2 },
    ]);
  });
});

describe('finding by name', () => {
  it('looks in labels and aliases, or claim texts, in any case, the words a string literal whatever they hold', () => {
    const actor = searchQuery('Actor', "  O'Brien \\ Sons ");
    expect(actor).toContain("MATCH (n:Actor)\nWHERE toLower(n.label) CONTAINS 'o\\'brien \\\\ sons' OR any(alias IN n.aliases WHERE toLower(alias) CONTAINS 'o\\'brien \\\\ sons')");
    expect(actor).toMatch(new RegExp(`ORDER BY n.label, id\\(n\\)\\nLIMIT ${SEARCH_LIMIT}$`));
    expect(searchQuery('Claim', 'Ceasefire')).toContain("MATCH (n:Claim)\nWHERE toLower(n.text) CONTAINS 'ceasefire'\n");
    expect(searchQuery('', 'x')).toContain('WHERE (n:Actor OR n:Location OR n:Claim) AND (');
  });
});
