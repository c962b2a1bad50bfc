import { describe, expect, it } from 'vitest';
import type { Findings } from '../../engine/extract/types.ts';
import { predictionFromFindings } from '../../bench/eval/predict.ts';
import { scoreSentence, type GoldSentence } from '../../bench/eval/score.ts';

const text = 'The RSF attacked El Fasher on 3 March, and Burhan vowed to crush the militia.';
const at = (part: string) => ({ start: text.indexOf(part), end: text.indexOf(part) + part.length });

const findings: Findings = {
  actors: [
    { ...at('RSF'), text: 'RSF', actor_type: 'armed_group', canonical: 'Rapid Support Forces', confidence: 0.9, source: 'gazetteer' },
    { ...at('Burhan'), text: 'Burhan', actor_type: 'individual', confidence: 0.8, source: 'gazetteer' },
  ],
  locations: [{ ...at('El Fasher'), text: 'El Fasher', location_type: 'city', confidence: 0.9, source: 'gazetteer' }],
  dates: [{ ...at('3 March'), text: '3 March', iso: '2024-03-03' }],
  claims: [
    { ...at('Burhan vowed to crush the militia'), text: 'Burhan vowed to crush the militia', type: 'Threat', cue: at('vowed to crush'), speaker: at('Burhan'), targets: [], confidence: 0.7 },
  ],
  events: [
    { ...at('RSF attacked El Fasher'), text: 'RSF attacked El Fasher', event_type: 'ASSAULT', trigger: at('attacked'), participants: [], location: at('El Fasher'), date: at('3 March'), confidence: 0.7 },
  ],
  relations: [],
};

describe('predictionFromFindings', () => {
  it('carries canonical names, speakers, event places and event dates into the scorer', () => {
    const prediction = predictionFromFindings(text, findings);
    expect(prediction.actors[0].names).toEqual(['RSF', 'Rapid Support Forces']);
    expect(prediction.claims).toEqual([{ type: 'Threat', speaker: ['Burhan'] }]);
    expect(prediction.events).toEqual([{ type: 'ASSAULT', location: ['El Fasher'], date: '2024-03-03' }]);

    const gold: GoldSentence = {
      id: 't', conflict: 'Test', document_date: '2024-03-05', text,
      actors: [{ text: 'RSF', type: 'armed_group' }, { text: 'Burhan', type: 'individual' }],
      claims: [{ type: 'Threat', speaker: 'Burhan', cue: 'vowed to crush' }],
      events: [{ type: 'ASSAULT', trigger: 'attacked', location: 'El Fasher', date: '2024-03-03' }],
      locations: [{ text: 'El Fasher', type: 'city' }],
      dates: [{ text: '3 March', iso: '2024-03-03' }],
    };
    const outcome = scoreSentence(gold, prediction);
    for (const kind of ['actors (text+type)', 'claims (type+speaker)', 'events (type+location)', 'events (type+date)', 'dates (iso)'] as const) {
      expect(outcome[kind], kind).toMatchObject({ fp: 0, fn: 0 });
    }
  });

  it('leaves the speaker, place and date empty when the layer found none', () => {
    const bare: Findings = {
      ...findings,
      claims: [{ ...findings.claims[0], speaker: undefined }],
      events: [{ ...findings.events[0], location: undefined, date: undefined }],
    };
    const prediction = predictionFromFindings(text, bare);
    expect(prediction.claims[0].speaker).toEqual([]);
    expect(prediction.events[0]).toEqual({ type: 'ASSAULT', location: [], date: null });
  });
});
