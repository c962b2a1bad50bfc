import { describe, expect, it } from 'vitest';
import {
  goldProblems,
  maximumMatching,
  metricsOf,
  microAverage,
  nameTokens,
  namesMatch,
  parseGold,
  scoreItems,
  scoreSentence,
  type GoldSentence,
  type Prediction,
} from '../../bench/eval/score.ts';

const sentence = (overrides: Partial<GoldSentence> = {}): GoldSentence => ({
  id: 't-1', conflict: 'Test', document_date: '2024-03-05',
  text: 'General Abdel Fattah al-Burhan said the army would never accept talks with the Rapid Support Forces in El Fasher on 3 March.',
  actors: [{ text: 'Abdel Fattah al-Burhan', type: 'individual' }, { text: 'Rapid Support Forces', type: 'armed_group' }],
  claims: [{ type: 'RedLine', speaker: 'Abdel Fattah al-Burhan', cue: 'would never accept' }],
  events: [],
  locations: [{ text: 'El Fasher', type: 'city' }],
  dates: [{ text: '3 March', iso: '2024-03-03' }],
  ...overrides,
});

const empty: Prediction = { actors: [], claims: [], events: [], locations: [], dates: [] };

describe('name matching', () => {
  it('folds case, accents, possessives, titles and plurals', () => {
    expect(nameTokens("Médecins Sans Frontières")).toEqual(['medecin', 'san', 'frontiere']);
    expect(nameTokens("Russia's defence ministry")).toEqual(['russia', 'defence', 'ministry']);
    expect(nameTokens('President Volodymyr Zelensky')).toEqual(['volodymyr', 'zelensky']);
    expect(nameTokens('the Houthis')).toEqual(nameTokens('Houthi'));
  });

  it('accepts acronyms, surnames and close variants', () => {
    expect(namesMatch('RSF', 'Rapid Support Forces')).toBe(true);
    expect(namesMatch('United Arab Emirates', 'UAE')).toBe(true);
    expect(namesMatch('Burhan', 'Abdel Fattah al-Burhan')).toBe(true);
    expect(namesMatch('President Zelensky', 'Volodymyr Zelensky')).toBe(true);
    expect(namesMatch('Taliban', 'Taliban administration')).toBe(true);
    expect(namesMatch('Medecins Sans Frontieres', 'Médecins Sans Frontières')).toBe(true);
  });

  it('rejects modifiers, other actors and empty names', () => {
    expect(namesMatch('Sudanese', 'Sudanese Armed Forces')).toBe(false);
    expect(namesMatch('Russia', "Russia's defence ministry")).toBe(false);
    expect(namesMatch('Hamas', 'Hezbollah')).toBe(false);
    expect(namesMatch('UN', 'UN Mission in South Sudan')).toBe(false);
    expect(namesMatch('', 'Hamas')).toBe(false);
    expect(namesMatch('SAF', 'Rapid Support Forces')).toBe(false);
  });
});

describe('maximumMatching', () => {
  it('finds the one-to-one assignment a greedy pass would miss', () => {
    // gold 0 fits predictions 0 and 1, gold 1 only prediction 0: greedy gives gold 0 → 0 and loses gold 1.
    const fits = [[true, true], [true, false]];
    expect(maximumMatching(2, 2, (g, p) => fits[g][p])).toEqual([1, 0]);
  });

  it('leaves unmatched gold items at -1', () => {
    expect(maximumMatching(2, 1, () => true).filter((p) => p === -1)).toHaveLength(1);
    expect(maximumMatching(1, 0, () => true)).toEqual([-1]);
  });
});

describe('scoreItems', () => {
  it('ignores a second mention of a found entity but counts an unrelated extra', () => {
    const outcome = scoreItems(
      ['RSF'], ['Rapid Support Forces', 'RSF', 'Hamas'], (g: string, p: string) => namesMatch(g, p),
      { gold: (g) => g, predicted: (p) => p }, (g: string, p: string) => namesMatch(g, p),
    );
    expect(outcome).toMatchObject({ tp: 1, fp: 1, fn: 0, spurious: ['Hamas'] });
  });
});

describe('scoreSentence', () => {
  it('scores a perfect prediction as all true positives', () => {
    const prediction: Prediction = {
      actors: [{ names: ['Burhan'], type: 'individual' }, { names: ['RSF', 'Rapid Support Forces'], type: 'armed_group' }],
      claims: [{ type: 'RedLine', speaker: ['al-Burhan'] }],
      events: [],
      locations: [{ names: ['El Fasher'], type: 'city' }],
      dates: [{ text: '3 March', iso: '2024-03-03' }],
    };
    const outcome = scoreSentence(sentence(), prediction);
    expect(outcome['actors (text+type)']).toMatchObject({ tp: 2, fp: 0, fn: 0 });
    expect(outcome['claims (type+speaker)']).toMatchObject({ tp: 1, fp: 0, fn: 0 });
    expect(outcome['dates (iso)']).toMatchObject({ tp: 1, fp: 0, fn: 0 });
  });

  it('separates a wrong type from a wrong span, and a wrong speaker from a wrong claim type', () => {
    const prediction: Prediction = {
      ...empty,
      actors: [{ names: ['Rapid Support Forces'], type: 'armed_forces' }],
      claims: [{ type: 'RedLine', speaker: ['Rapid Support Forces'] }],
    };
    const outcome = scoreSentence(sentence(), prediction);
    expect(outcome['actors (text+type)']).toMatchObject({ tp: 0, fp: 1, fn: 2 });
    expect(outcome['actors (span only)']).toMatchObject({ tp: 1, fp: 0, fn: 1 });
    expect(outcome['claims (type+speaker)']).toMatchObject({ tp: 0, fp: 1, fn: 1 });
    expect(outcome['claims (type only)']).toMatchObject({ tp: 1, fp: 0, fn: 0 });
  });

  it('accepts any speaker for a claim without a named speaker, and a gold alias as the speaker', () => {
    const gold = sentence({
      actors: [{ text: 'Taliban government', type: 'government', aliases: ['Kabul'] }],
      claims: [{ type: 'Demand', speaker: null, cue: 'x' }, { type: 'Denial', speaker: 'Kabul', cue: 'y' }],
    });
    const prediction: Prediction = {
      ...empty,
      claims: [{ type: 'Demand', speaker: [] }, { type: 'Denial', speaker: ['Taliban government'] }],
    };
    expect(scoreSentence(gold, prediction)['claims (type+speaker)']).toMatchObject({ tp: 2, fp: 0, fn: 0 });
  });

  it('requires the location and the date for the stricter event kinds', () => {
    const gold = sentence({ events: [{ type: 'ASSAULT', trigger: 'attacked', location: ['Hodeidah', 'Sanaa'], date: '2024-01-12' }] });
    const rightPlace: Prediction = { ...empty, events: [{ type: 'ASSAULT', location: ['Sanaa'], date: null }] };
    const outcome = scoreSentence(gold, rightPlace);
    expect(outcome['events (type)'].tp).toBe(1);
    expect(outcome['events (type+location)'].tp).toBe(1);
    expect(outcome['events (type+date)']).toMatchObject({ tp: 0, fp: 1, fn: 1 });
    const placeless: Prediction = { ...empty, events: [{ type: 'ASSAULT', location: [], date: '2024-01-12' }] };
    expect(scoreSentence(gold, placeless)['events (type+location)'].tp).toBe(0);
    expect(scoreSentence(gold, placeless)['events (type+date)'].tp).toBe(1);
  });
});

describe('metrics', () => {
  it('computes precision, recall and F1, and null when undefined', () => {
    const m = metricsOf({ tp: 3, fp: 1, fn: 3 });
    expect(m.precision).toBeCloseTo(0.75);
    expect(m.recall).toBeCloseTo(0.5);
    expect(m.f1).toBeCloseTo(0.6);
    expect(metricsOf({ tp: 0, fp: 0, fn: 2 })).toMatchObject({ precision: null, recall: 0, f1: null });
    expect(metricsOf({ tp: 0, fp: 2, fn: 2 }).f1).toBe(0);
  });

  it('micro-averages by summing counts over sentences', () => {
    const perfect = scoreSentence(sentence(), {
      ...empty, actors: [{ names: ['Burhan'], type: 'individual' }, { names: ['RSF'], type: 'armed_group' }],
    });
    const nothing = scoreSentence(sentence(), empty);
    const total = microAverage([perfect, nothing])['actors (text+type)'];
    expect(total).toMatchObject({ tp: 2, fp: 0, fn: 2, precision: 1, recall: 0.5 });
  });
});

describe('gold validation', () => {
  it('accepts a well-formed record', () => {
    expect(goldProblems(sentence())).toEqual([]);
  });

  it('reports vocabulary errors, text that is not in the sentence and dangling event links', () => {
    const problems = goldProblems(sentence({
      actors: [{ text: 'Rapid Support Force', type: 'militia' }],
      events: [{ type: 'ATTACK', trigger: 'bombed', location: 'Darfur', date: '2024-03-04' }],
    }));
    expect(problems).toEqual(expect.arrayContaining([
      'actor type "militia" is not in the ontology',
      'event type "ATTACK" is not in the ontology',
      'trigger "bombed" does not occur in the text',
      'event location "Darfur" is not one of the sentence\'s locations',
      'event date 2024-03-04 is not one of the sentence\'s dates',
    ]));
  });

  it('rejects duplicate ids and malformed lines with their line number', () => {
    const line = JSON.stringify(sentence());
    expect(() => parseGold(`${line}\n${line}\n`)).toThrow(/line 2.*duplicate id/);
    expect(() => parseGold(`${line}\n{oops\n`)).toThrow(/line 2: not JSON/);
  });
});

describe('relation annotations of the entity sets', () => {
  it('checks relation ends against the actors (relations are scored by gold entity, in relations.ts)', () => {
    expect(goldProblems(sentence({ relations: [{ type: 'OPPOSES', from: 'Nobody', to: 'Rapid Support Forces' }] }))).toEqual([
      'relation end "Nobody" is not one of the sentence\'s actors',
    ]);
  });
});
