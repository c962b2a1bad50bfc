import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExtractionPipeline } from '../../engine/extract/pipeline.ts';

/**
 * Issue 25, place and actor typing by role: a country or city the text uses as a place is a
 * Location; the actor reading is kept where the text makes the country act. Asserted on the
 * pipeline's typed result (real symbolic layer, structure and resolution).
 */

const pipeline = createExtractionPipeline();
afterAll(() => pipeline.close());
/** The gazetteers load on the first place they are asked about: seconds, minutes on a loaded machine. */
const GAZETTEER_LOAD_MS = 300_000;
beforeAll(() => pipeline.extract({ text: 'Troops entered Tikrit.', source: 'warm.txt' }, { tier: 'full' }), GAZETTEER_LOAD_MS);

interface Typed { label: string; spans: [number, number][] }

async function typed(text: string): Promise<{ actors: Typed[]; places: Typed[] }> {
  const result = await pipeline.extract({ text, source: 'roles.txt' }, { tier: 'full', ingestedAt: '2025-03-01T00:00:00Z' });
  const of = (kind: string) =>
    result.graph.nodes
      .filter((node) => node.labels[0] === kind)
      .map((node) => ({ label: String(node.properties.label), spans: node.provenance.map((record) => [record.span!.start, record.span!.end] as [number, number]) }));
  return { actors: of('Actor'), places: of('Location') };
}

const labels = (nodes: Typed[]) => nodes.map((node) => node.label).sort();

describe('a country used as a place is a Location', () => {
  it('in a coordination after a locative preposition', async () => {
    const { actors, places } = await typed('Fighting in Syria and Iraq displaced thousands of families last year.');
    expect(labels(places)).toEqual(['Iraq', 'Syria']);
    expect(actors).toEqual([]);
  });

  it('in a list of places', async () => {
    const { actors, places } = await typed('Refugees crossed from Sudan, Chad and South Sudan into the camps of the region.');
    expect(labels(places)).toEqual(['Chad', 'South Sudan', 'Sudan']);
    expect(actors).toEqual([]);
  });

  it('after the town it locates ("Aleppo, Syria")', async () => {
    const { actors, places } = await typed('The strike hit a market in Aleppo, Syria, on Tuesday.');
    expect(labels(places)).toEqual(['Aleppo', 'Syria']);
    expect(actors).toEqual([]);
  });

  it('as a heading on its own line and as a capitalised dateline', async () => {
    const heading = await typed('Syria\nGovernment forces shelled opposition positions overnight.');
    expect(labels(heading.places)).toEqual(['Syria']);
    expect(labels(heading.actors)).not.toContain('Syria');
    const dateline = await typed('SOMALIA — Al-Shabaab fighters attacked a base on Monday.');
    expect(labels(dateline.places)).toEqual(['Somalia']);
    expect(labels(dateline.actors)).not.toContain('Somalia');
  });

  it('as a side of a frontier ("the Belarus–Ukraine border", "the border with Algeria")', async () => {
    const { actors, places } = await typed('Delegates waited at the Belarus–Ukraine border as the buses crossed. '
      + 'The rebels fought near the border with Algeria, trucks used the frontier between Chad and Sudan, and Belarus closed its border with Poland.');
    expect(labels(places)).toEqual(['Algeria', 'Belarus', 'Chad', 'Poland', 'Sudan', 'Ukraine']);
    expect(actors.map((actor) => actor.label)).not.toEqual(expect.arrayContaining(['Algeria']));
  });
});

describe('a country the text makes act stays an actor', () => {
  it('when it acts across a border or is accused along one', async () => {
    const text = 'Belarus closed its border with Poland. The army accused Algeria of harbouring the rebels along its border.';
    const { actors } = await typed(text);
    expect(labels(actors)).toEqual(expect.arrayContaining(['Algeria', 'Belarus']));
  });

  it('when it says, denies or accuses, and when it is accused', async () => {
    const { actors, places } = await typed('Rwanda denied supporting the M23 rebels. Iran accused Israel of attacking its consulate.');
    expect(labels(actors)).toEqual(expect.arrayContaining(['Iran', 'Israel', 'Rwanda']));
    expect(places).toEqual([]);
  });

  it('when ", and" opens a clause the country acts in, after a place', async () => {
    const { actors, places } = await typed('Russia launched missiles at targets in Ukraine, and Poland sent air defence systems to Kyiv.');
    expect(labels(actors)).toEqual(['Poland', 'Russia']);
    expect(labels(places)).toEqual(['Kyiv', 'Ukraine']);
  });

  it('acting and a place in one document: two nodes, each on its own mention', async () => {
    const text = 'Fighting in Sudan displaced millions of people. Sudan rejected the report as biased.';
    const { actors, places } = await typed(text);
    const place = text.indexOf('Sudan');
    const state = text.lastIndexOf('Sudan');
    expect(places).toEqual([{ label: 'Sudan', spans: [[place, place + 5]] }]);
    expect(actors).toEqual([{ label: 'Sudan', spans: [[state, state + 5]] }]);
  });
});

describe('a country in the possessive before an actor qualifies that actor', () => {
  it('is neither a place nor a party of its own', async () => {
    const { actors, places } = await typed("Sudan's Sovereignty Council said it would not negotiate. Somalia's president said the deal was void.");
    expect(labels(places)).toEqual([]);
    expect(labels(actors)).not.toContain('Sudan');
    expect(labels(actors)).not.toContain('Somalia');
    expect(labels(actors)).toContain('Sovereignty Council of Sudan');
  });

  it('but a place it possesses leaves it a place', async () => {
    const { places } = await typed("Ukrainian troops pushed into Russia's Kursk region in August.");
    expect(labels(places)).toEqual(expect.arrayContaining(['Russia', 'Kursk']));
  });
});
