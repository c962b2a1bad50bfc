import { afterAll, describe, expect, it } from 'vitest';
import { createExtractionPipeline } from '../../engine/extract/pipeline.ts';
import { findConflictEntities } from '../../engine/extract/symbolic/index.ts';
import { extractedRelations } from '../helpers/extracted-relations.ts';

/**
 * Issue 25, seventh round: an acronym nothing types ("BINUH", "AFRICOM") is read as an armed group for want
 * of anything better. The node keeps that type, but it is a guess: a noun ("the group") does not stand for
 * the acronym by it, and a person heading it is not taken for a party to the conflict by it.
 */
const pipeline = createExtractionPipeline();
afterAll(() => pipeline.close());

const DATE = '2024-05-16';
const relations = (text: string, type = 'OPPOSES') => extractedRelations(pipeline, text, type, DATE);

describe("an acronym's guessed type", () => {
  const command = 'U.S. Africa Command conducted an airstrike against al-Shabaab near Jilib on Tuesday. '
    + "AFRICOM's initial assessment is that the strike killed three militants. ";

  it('is kept on the node, marked as a guess', async () => {
    const { actors } = findConflictEntities({ text: command, source: 'test.txt', document_date: DATE });
    const acronym = actors.find((actor) => actor.text === 'AFRICOM');
    expect(acronym).toMatchObject({ actor_type: 'armed_group', type_guessed: true });
    const { graph } = await pipeline.extract({ text: command, source: 'test.txt', document_date: DATE }, { tier: 'full' });
    expect(graph.nodes.find((node) => node.properties.label === 'AFRICOM')?.properties.actor_type).toBe('armed_group');
  });

  it('does not make the acronym "the group" a later clause fights', async () => {
    const text = `${command}Last week the Somali National Army retook the town of Bula from the group.`;
    expect(await relations(text)).toEqual([['Africa Command', 'al-Shabaab']]);
  });

  it('while a type the text gives the acronym ("KLF fighters") does', async () => {
    const text = 'Al-Shabaab fighters attacked a base near Jilib on Tuesday. KLF fighters shelled the town the next day. '
      + 'Last week the Somali National Army retook the town of Bula from the group.';
    expect(await relations(text)).toEqual([['Somali National Army', 'KLF']]);
  });

  const accusation = 'The head of KOMISA, Ana Velt, told reporters on Friday that gangs had killed 40 people in Dorval. '
    + 'She accused the Red Blade gang of burning houses.';

  it('does not make the head of the acronym a party whose accusation is hostile', async () => {
    expect(await relations(accusation, 'MEMBER_OF')).toEqual([['Ana Velt', 'KOMISA']]);
    expect(await relations(accusation)).toEqual([]);
  });

  it('while the head of an acronym the text calls armed is one, before or after', async () => {
    expect(await relations(`KOMISA fighters held the hills above Dorval. ${accusation}`)).toEqual([['Ana Velt', 'Red Blade']]);
    expect(await relations(`${accusation} KOMISA fighters held the hills above Dorval.`)).toEqual([['Ana Velt', 'Red Blade']]);
  });
});
