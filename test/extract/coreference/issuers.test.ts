import { afterAll, describe, expect, it } from 'vitest';
import { actors, coreferencePipeline, referentOf, speakers } from './helpers.ts';

/**
 * Issue 25, speakers on text written without the rules in mind: an organisation's own statement
 * speaks as "we" and "The Ministry" after its heading names it; a statement's present-tense verbs
 * after "and" keep their subject; a capital opening a sentence speaks for its government; a
 * quotation with no attribution of its own goes on with the quotation before it; an office
 * written in capitals introduces the person after it. Each with a look-alike that stays as it was.
 */

const pipeline = coreferencePipeline();
afterAll(() => pipeline.close());

describe('a statement speaks as its issuer', () => {
  it('"we" and "our" outside quotations are the organisation the heading names as the statement\'s author', async () => {
    const text =
      'Statement of the Oshen Liberation Front\n\n' +
      'On the night of 4 October, our units struck the positions of the Carrodian Defence Forces at Kaddo.\n\n' +
      'We deny receiving weapons or any other support from Estvany. We are ready to take part in talks if the regime withdraws its forces from our villages.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'We', 'We deny')).toBe('Oshen Liberation Front');
    expect(speakers(graph)).toMatchObject({
      'We deny receiving weapons or any other support from Estvany': 'Oshen Liberation Front',
    });
  });

  it('a news report\'s "we" is its writer\'s: a headline with no statement in it names no issuer', async () => {
    const text =
      'Oshen People\'s Front strikes army positions at Kaddo\n\n' +
      'The Oshen People\'s Front said on Sunday that its units had struck army positions at Kaddo. ' +
      'We deny nothing the front has not denied itself, and we are ready to correct this report.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'We', 'We deny')).toBeUndefined();
    expect(Object.entries(speakers(graph)).filter(([claim]) => claim.startsWith('We deny'))).toEqual([['We deny nothing the front has not denied itself', null]]);
  });

  it('a headline that only reports on a statement names no issuer: the statement word is bound to no actor', async () => {
    const text =
      'Carrodian army dismisses Oshen Liberation Front statement on Kaddo\n\n' +
      'The Carrodian Defence Forces said on Sunday that the front had invented the attack at Kaddo. ' +
      'We have asked both sides for comment, and we will update this report.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'We', 'We have asked')).toBeUndefined();
  });

  it('"X — Press Release" and "X statement on" open a heading line with the statement\'s author', async () => {
    const text =
      'Ministry of Defence of Carrodia — Press Release\n\n' +
      'On 2 May the Oshen Liberation Front attacked a border post near Kaddo. We will respond to any further attack.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'We', 'We will respond')).toMatch(/^Ministry of Defence/);
  });

  it('a statement word bound through an office, a label line, or a date before a dash still names the author', async () => {
    for (const heading of ['Statement by the Spokesperson for the Oshen Liberation Front', 'PRESS RELEASE No. 45/2024\n\nOshen Liberation Front', '12 March 2024 — Statement of the Oshen Liberation Front']) {
      const text = `${heading}\n\nOn 2 May the Carrodian Defence Forces shelled Kaddo. We will respond to any further attack.`;
      const graph = await pipeline.graphOf(text);
      expect(referentOf(graph, text, 'We', 'We will respond')).toBe('Oshen Liberation Front');
    }
  });

  it('"The Ministry" of a ministry\'s statement is that ministry, though another ministry was named since', async () => {
    const text =
      'Information of the Ministry of Defence of the Republic of Carrodia\n\n' +
      'On 30 March, units of the Teolani army opened fire on our positions near Brell.\n\n' +
      'The statement of the Ministry of Defence of Teolan, which denied that its units had opened fire, does not reflect reality.\n\n' +
      'The Ministry calls on the Teolani side to refrain from steps that undermine the peace process. ' +
      'On Monday the Ministry reaffirmed its readiness for talks.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'The Ministry', 'The Ministry calls')).toBe('Ministry of Defence of the Republic of Carrodia');
    expect(referentOf(graph, text, 'the Ministry', 'the Ministry reaffirmed')).toBe('Ministry of Defence of the Republic of Carrodia');
    expect(actors(graph).map((node) => node.properties.label)).not.toContain('Ministry of Defence of the Republic of Carrodia\n\nOn');
  });

  it('"The Ministry" of a statement some other body issues stays the ministry the text named', async () => {
    const text =
      'UNIFIL statement on firing near Brell\n\n' +
      'The Ministry of Defence of Teolan said on Monday that its units had fired warning shots near Brell. ' +
      'The Ministry denied that peacekeepers had been targeted.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'The Ministry', 'The Ministry denied')).toBe('Ministry of Defence of Teolan');
  });
});

describe('present-tense verbs of a statement after "and"', () => {
  it('keep the clause\'s subject (", and calls on ...")', async () => {
    const text = 'The Kivaran Ministry of Defence thanks international partners for their support to the army, and calls on the people of Hiiran to cooperate with the security forces.';
    const graph = await pipeline.graphOf(text);
    expect(speakers(graph)).toMatchObject({ 'calls on the people of Hiiran to cooperate with the security forces': 'Kivaran Ministry of Defence' });
  });

  it('but a new subject after "and" speaks for itself', async () => {
    const text = 'The Kivaran Ministry of Defence thanks international partners for their support, and the Hiiran Elders Council calls on residents to stay calm.';
    const graph = await pipeline.graphOf(text);
    expect(speakers(graph)).toMatchObject({ 'the Hiiran Elders Council calls on residents to stay calm': 'Hiiran Elders Council' });
  });
});

describe('a capital opening a sentence', () => {
  it('speaks for its government when a verb of speech or act follows', async () => {
    const text = 'Talks between the two sides stalled in May. Islamabad accuses Kabul of sheltering the Tehreek-e-Taliban Pakistan. Washington welcomed the understanding.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'Islamabad')).toBe('Government of Pakistan');
    expect(referentOf(graph, text, 'Washington', 'Washington welcomed')).toBe('Government of United States');
  });

  it('is no actor when what follows is no verb of its own', async () => {
    const text = 'Talks between the two sides stalled in May. Islamabad airport reopened on Tuesday after the storm.';
    const graph = await pipeline.graphOf(text);
    expect(referentOf(graph, text, 'Islamabad')).toBeUndefined();
  });
});

describe('a quotation with no attribution of its own', () => {
  it('goes on with the quotation the sentence before opened with', async () => {
    const text =
      '"Behind every one of these numbers is a family that has waited months for news," said Ariane Vell, the ICRC\'s regional director. ' +
      '"We call on both parties to continue such releases and to share information on those who are missing."';
    const graph = await pipeline.graphOf(text);
    expect(speakers(graph)).toMatchObject({ 'We call on both parties to continue such releases and to share information on those who are missing': 'Ariane Vell' });
  });

  it('but a quotation attributed again is its own speaker\'s', async () => {
    const text =
      '"Behind every one of these numbers is a family that has waited months for news," said Ariane Vell, the ICRC\'s regional director. ' +
      '"We call on both parties to continue such releases," said Tomas Hrell, the head of the Kivaran Red Crescent.';
    const graph = await pipeline.graphOf(text);
    expect(speakers(graph)).toMatchObject({ 'We call on both parties to continue such releases': 'Tomas Hrell' });
  });
});

describe('an office written in capitals before a name', () => {
  it('introduces a person no list knows, who speaks', async () => {
    const text = 'The United Nations Humanitarian Coordinator, Clementine Vasse-Orlan, said she was alarmed by the reports and called on all parties to let civilians leave.';
    const graph = await pipeline.graphOf(text);
    expect(actors(graph).find((node) => node.properties.label === 'Clementine Vasse-Orlan')?.properties.actor_type).toBe('individual');
    expect(speakers(graph)).toMatchObject({ 'called on all parties to let civilians leave': 'Clementine Vasse-Orlan' });
  });

  it('but a body in capitals before a place is no office, and the place no person', async () => {
    const text = 'The Regional Security Council, Tessa Province, said on Monday that the road would reopen.';
    const graph = await pipeline.graphOf(text);
    expect(actors(graph).map((node) => node.properties.label)).not.toContain('Tessa Province');
  });
});
