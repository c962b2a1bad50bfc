import { afterAll, describe, expect, it } from 'vitest';
import { createExtractionPipeline } from '../../engine/extract/pipeline.ts';
import { findConflictEntities } from '../../engine/extract/symbolic/index.ts';
import { extractedRelations } from '../helpers/extracted-relations.ts';

/**
 * Issue 25, OPPOSES and ALLIED_WITH precision on whole documents: a relation is stated by a conflict
 * verb between two parties the text leaves no doubt about. A coalition named for its enemy states no
 * fight, "tensions between" are no fight, and a description ("the junta") that no single named actor
 * before it fits takes no side in a relation.
 */
const pipeline = createExtractionPipeline();
afterAll(() => pipeline.close());

const relations = (text: string, type: 'OPPOSES' | 'ALLIED_WITH' = 'OPPOSES') => extractedRelations(pipeline, text, type, '2024-02-05');

describe('a coalition named for the enemy it stands against', () => {
  it('is one name, and its name states no fight', async () => {
    const text = 'The Global Coalition against Daesh said on Tuesday that it would hold its next ministerial meeting in Rome.';
    const { actors } = findConflictEntities({ text, source: 'test.txt', document_date: '2024-02-05' });
    expect(actors.map((actor) => actor.text)).toContain('Global Coalition against Daesh');
    expect(await relations(text)).toEqual([]);
  });

  it('still fights what its aircraft strike', async () => {
    const text = 'Aircraft of the Global Coalition against Daesh conducted 31 strikes against Daesh targets in eastern Syria over the past week.';
    expect(await relations(text)).toEqual([['Global Coalition against Daesh', 'Islamic State']]);
  });
});

describe('a fight "with" a party', () => {
  it('states no side: "fought with" is as often beside as against', async () => {
    expect(await relations('Fighters of the Joint Force fought with the Sudanese Armed Forces in El Fasher on Sunday.')).toEqual([]);
  });

  it('while "clashed with" does', async () => {
    expect(await relations('Fighters of the Joint Force clashed with the Sudanese Armed Forces in El Fasher on Sunday.')).toEqual([['Fighters of the Joint Force', 'Sudanese Armed Forces']]);
  });
});

describe('parties "between" which something stands', () => {
  it('oppose each other when it is fighting', async () => {
    expect(await relations('Clashes between Ethiopia and Eritrea broke out near Badme on Sunday.')).toEqual([['Ethiopia', 'Eritrea']]);
  });

  it('do not when it is tension', async () => {
    expect(await relations('Tensions between Ethiopia and Eritrea have risen since the Pretoria agreement.')).toEqual([]);
  });
});

describe('a description that no single named actor before it fits', () => {
  it('takes no side in an accusation ("the junta", only a rival government named, and after it)', async () => {
    const text = 'The Arakan Army said it had captured the last base in Paletwa township.\n\n'
      + 'The group said it would keep fighting. It accused the junta of air strikes on villages.\n\n'
      + 'The National Unity Government praised the Arakan Army.';
    expect(await relations(text)).toEqual([]);
  });

  it('takes no side in an act it is the object of', async () => {
    const text = 'Gunmen of the Kesh Liberation Front attacked the army near Talvane on Monday. '
      + 'The Mardovian Armed Forces and the Talvanese Armed Forces later patrolled the border.';
    expect(await relations(text)).toEqual([]);
  });

  it('still does where one actor of its kind was named before it', async () => {
    const text = 'The Mardovian Armed Forces patrolled the border on Sunday. Gunmen of the Kesh Liberation Front attacked the army near Talvane on Monday.';
    expect(await relations(text)).toEqual([['Kesh Liberation Front', 'Mardovian Armed Forces']]);
  });

  it('takes no side in an alliance either', async () => {
    const text = 'The Kesh Liberation Front backed the army in the east. The Mardovian Armed Forces and the Talvanese Armed Forces held the hills.';
    expect(await relations(text, 'ALLIED_WITH')).toEqual([]);
  });
});

describe('support for a people', () => {
  it('is no alliance with it', async () => {
    expect(await relations('The United Nations remains committed to supporting the Sudanese people through this crisis.', 'ALLIED_WITH')).toEqual([]);
  });

  it('while support for a party is', async () => {
    expect(await relations('The United Arab Emirates has been supporting the Rapid Support Forces since 2023.', 'ALLIED_WITH')).toEqual([['United Arab Emirates', 'Rapid Support Forces']]);
  });
});

describe('a possessor before the subject ("The army\'s Northern Corps said")', () => {
  it('is not what a pronoun in the next sentence stands for: the corps accuses', async () => {
    const text = 'The Talvanese Armed Forces said on Friday that the frontier was calm. '
      + 'The army\'s Northern Corps, which guards the frontier, said its troops had seen armed men near the river. '
      + 'It accused the Rapid Support Forces of shelling border posts.';
    expect(await relations(text)).toEqual([['Northern Corps', 'Rapid Support Forces']]);
  });
});

describe('a heading in capitals', () => {
  it('holds no titled person ("GENERAL COMMAND Statement"), so nobody opposes what it names', async () => {
    const text = 'SYRIAN DEMOCRATIC FORCES — GENERAL COMMAND Statement on operations against ISIS cells in Deir ez-Zor\n\n'
      + 'Our forces carried out a security operation in the villages of eastern Deir ez-Zor on 8 February.';
    const { actors } = findConflictEntities({ text, source: 'test.txt', document_date: '2024-02-05' });
    expect(actors.filter((actor) => actor.actor_type === 'individual')).toEqual([]);
    expect((await relations(text)).filter(([, to]) => to === 'Islamic State')).toEqual([]);
  });
});
