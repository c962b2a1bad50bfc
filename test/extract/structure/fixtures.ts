import type { Findings, TextSpan } from '../../../engine/extract/types.ts';

/** The span of the `occurrence`-th (0-based) appearance of `needle` in `text`; throws when absent. */
export function spanOf(text: string, needle: string, occurrence = 0): TextSpan & { text: string } {
  let from = -1;
  for (let i = 0; i <= occurrence; i++) {
    from = text.indexOf(needle, from + 1);
    if (from === -1) throw new Error(`'${needle}' #${occurrence} not in text`);
  }
  return { start: from, end: from + needle.length, text: needle };
}

export const SUDAN_SENTENCE =
  'On 3 March 2024 the Rapid Support Forces attacked El Fasher, while General Abdel Fattah al-Burhan of the Sudanese Armed Forces said the army would never accept a ceasefire that leaves the RSF in the cities.';

/**
 * What a symbolic layer finds in the Sudan sentence, written by hand so the structure
 * stage is tested on its own. The RSF acronym is deliberately left without a canonical
 * name: resolving it is the structure stage's job.
 */
export function sudanFindings(): Findings {
  const t = SUDAN_SENTENCE;
  const rsfFull = spanOf(t, 'Rapid Support Forces');
  const saf = spanOf(t, 'Sudanese Armed Forces');
  const burhan = spanOf(t, 'General Abdel Fattah al-Burhan');
  const rsfShort = spanOf(t, 'RSF');
  const claimText = 'the army would never accept a ceasefire that leaves the RSF in the cities';
  const claim = spanOf(t, claimText);
  const attack = spanOf(t, 'the Rapid Support Forces attacked El Fasher');
  return {
    actors: [
      { ...rsfFull, actor_type: 'armed_group', canonical: 'Rapid Support Forces', confidence: 0.95, source: 'gazetteer' },
      { ...saf, actor_type: 'armed_forces', canonical: 'Sudanese Armed Forces', confidence: 0.95, source: 'gazetteer' },
      { ...burhan, actor_type: 'individual', title: 'General', confidence: 0.85, source: 'title' },
      { ...rsfShort, actor_type: 'armed_group', confidence: 0.9, source: 'pattern' },
      { ...spanOf(t, 'the army'), actor_type: 'armed_forces', confidence: 0.6, source: 'pattern' },
    ],
    locations: [{ ...spanOf(t, 'El Fasher'), location_type: 'city', country_code: 'SD', confidence: 0.9, source: 'gazetteer' }],
    dates: [{ ...spanOf(t, '3 March 2024'), iso: '2024-03-03' }],
    claims: [
      {
        ...claim, text: claimText, type: 'RedLine', cue: spanOf(t, 'would never accept'), speaker: burhan,
        targets: [rsfShort], confidence: 0.8,
      },
    ],
    events: [
      {
        ...attack, event_type: 'ASSAULT', trigger: spanOf(t, 'attacked'),
        participants: [{ ...rsfFull, role: 'perpetrator' }], location: spanOf(t, 'El Fasher'),
        date: spanOf(t, '3 March 2024'), confidence: 0.8,
      },
    ],
    relations: [
      { ...spanOf(t, 'General Abdel Fattah al-Burhan of the Sudanese Armed Forces'), type: 'MEMBER_OF', from: burhan, to: saf, confidence: 0.8 },
    ],
  };
}

export function emptyFindings(): Findings {
  return { actors: [], locations: [], dates: [], claims: [], events: [], relations: [] };
}
