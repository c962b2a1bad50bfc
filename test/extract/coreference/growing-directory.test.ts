import { describe, expect, it } from 'vitest';
import { actorDirectory, type ActorDirectory, type KnownActor } from '../../../engine/extract/structure/coreference.ts';

/**
 * A batch adds each document's actors to the directory it holds instead of building it again
 * from the whole graph per document (engine/ingest/commit.ts): what the directory answers must
 * be what one built from every actor at once answers.
 */

const TEXT =
  'The Rapid Support Forces (RSF) and the Sudanese Armed Forces met in Jeddah. The RSF said the Sudan Armed Forces broke the truce; ' +
  'the Kivara Patriotic Army and the KPA spokesman Jean Mutombo denied it. The Rapid Support Group is another.';

function answers(directory: ActorDirectory) {
  return {
    occurrences: directory.occurrences(TEXT).map(({ start, end, canonical, actor_type }) => ({ start, end, canonical, actor_type })),
    lookups: ['RSF', 'SAF', 'KPA', 'Sudan Armed Forces', 'rapid support forces', 'Jean Mutombo', 'JM', 'Kivara Patriotic Army'].map((surface) => directory.lookup(surface)),
  };
}

const ACTORS: KnownActor[] = [
  { label: 'Rapid Support Forces', aliases: ['RSF'], actor_type: 'armed_group' },
  { label: 'Sudanese Armed Forces', aliases: ['Sudan Armed Forces'], actor_type: 'armed_forces' },
  { label: 'Kivara Patriotic Army', actor_type: 'armed_group' },
  { label: 'Jean Mutombo', actor_type: 'individual' },
  { label: 'Rapid Support Group', actor_type: 'armed_group' },
];

describe('an actor directory added to', () => {
  it('answers as one built from every actor at once, whatever the order actors and names come in', () => {
    const whole = answers(actorDirectory(ACTORS));
    expect(whole.occurrences.map(({ canonical }) => canonical)).toContain('Sudanese Armed Forces');
    expect(whole.lookups).toEqual(['Rapid Support Forces', 'Sudanese Armed Forces', 'Kivara Patriotic Army', 'Sudanese Armed Forces', 'Rapid Support Forces', 'Jean Mutombo', undefined, 'Kivara Patriotic Army']);

    const grown = actorDirectory([]);
    // names come in parts, as documents bring them: an actor first, its alias later
    grown.add({ label: 'Sudanese Armed Forces', actor_type: 'armed_forces' });
    grown.add({ label: 'Rapid Support Group', actor_type: 'armed_group' });
    grown.add({ label: 'Rapid Support Forces', actor_type: 'armed_group' });
    grown.add({ label: 'Jean Mutombo', actor_type: 'individual' });
    grown.add({ label: 'Kivara Patriotic Army', actor_type: 'armed_group' });
    grown.add({ label: 'Rapid Support Forces', aliases: ['RSF'], actor_type: 'armed_group' });
    grown.add({ label: 'Sudanese Armed Forces', aliases: ['Sudan Armed Forces'], actor_type: 'armed_forces' });
    expect(answers(grown)).toEqual(whole);
  });

  it('does not find a name twice when an actor is added again with more names', () => {
    const directory = actorDirectory([{ label: 'Kivara Patriotic Army', actor_type: 'armed_group' }]);
    directory.add({ label: 'Kivara Patriotic Army', aliases: ['KPA'], actor_type: 'armed_group' });
    expect(directory.occurrences('The Kivara Patriotic Army said so.').map(({ text }) => text)).toEqual(['Kivara Patriotic Army']);
    expect(directory.lookup('KPA')).toBe('Kivara Patriotic Army');
  });

  it('answers nobody for a name two actors claim, whichever came first, and a label still beats an alias', () => {
    const north: KnownActor = { label: 'Lakeside Front North', aliases: ['Lakeside Front', 'Front Nord'], actor_type: 'armed_group' };
    const south: KnownActor = { label: 'Lakeside Front South', aliases: ['Lakeside Front'], actor_type: 'armed_group' };
    const named: KnownActor = { label: 'Front Nord', actor_type: 'armed_group' };
    const text = 'The Lakeside Front and the Front Nord said the Lakeside Front South would hold.';
    const read = (directory: ActorDirectory) => ({
      lookups: ['Lakeside Front', 'lakeside front', 'Front Nord', 'Lakeside Front South'].map((surface) => directory.lookup(surface)),
      occurrences: directory.occurrences(text).map(({ text: surface, canonical }) => [surface, canonical]),
    });
    const expected = {
      lookups: [undefined, undefined, 'Front Nord', 'Lakeside Front South'],
      occurrences: [['Front Nord', 'Front Nord'], ['Lakeside Front South', 'Lakeside Front South']],
    };
    expect(read(actorDirectory([north, south, named]))).toEqual(expected);
    expect(read(actorDirectory([named, south, north]))).toEqual(expected);
    const grown = actorDirectory([south]);
    grown.add(named);
    grown.add(north);
    expect(read(grown)).toEqual(expected);
  });
});
