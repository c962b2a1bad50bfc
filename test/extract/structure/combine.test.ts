import { describe, expect, it } from 'vitest';
import { combineMentions, COMBINATION_POLICIES, DEFAULT_COMBINATION, nerFamily, type CombinationPolicy } from '../../../engine/extract/structure/combine.ts';
import type { EntityMention } from '../../../engine/extract/structure/entity-mention.ts';
import { collectMentions } from '../../../engine/extract/structure/mentions.ts';
import type { NeuralEntity } from '../../../engine/extract/types.ts';
import { emptyFindings } from './fixtures.ts';

const TEXT = 'Lt. Gen. Scott C. Dayton met officials of the Ministry of Peshmerga Affairs in Erbil.';

function at(phrase: string): { start: number; end: number; text: string } {
  const start = TEXT.indexOf(phrase);
  if (start < 0) throw new Error(`fixture lacks ${phrase}`);
  return { start, end: start + phrase.length, text: phrase };
}

/** What a greedy gazetteer makes of the sentence: the surname as a city, the place right. */
const dayton: EntityMention = { ...at('Dayton'), kind: 'Location', location_type: 'city', confidence: 0.8, source: 'gazetteer' };
const erbil: EntityMention = { ...at('Erbil'), kind: 'Location', location_type: 'city', confidence: 0.9, source: 'gazetteer' };
const RULES = [dayton, erbil];

const entity = (phrase: string, label: string, score: number): NeuralEntity => ({ ...at(phrase), label, score });
const MODEL = [
  entity('Scott C. Dayton', 'PER', 0.95),
  entity('Ministry of Peshmerga Affairs', 'ORG', 0.85),
  entity('Erbil', 'LOC', 0.99),
  entity('officials', 'ORG', 0.4),
];

const policy = (overrides: Partial<CombinationPolicy>): CombinationPolicy => ({ name: 'test', minScore: 0, overrideScore: null, families: ['person', 'organisation', 'location'], ...overrides });
const summary = (mentions: readonly EntityMention[]) =>
  mentions.map((m) => `${m.text}|${m.kind}|${m.actor_type ?? m.location_type}|${m.source}`).sort();

describe('combination of rule mentions and model spans', () => {
  it('fills gaps only when the policy never overrides: the rule reading of "Dayton" stays', () => {
    const combined = combineMentions(RULES, MODEL, policy({ minScore: 0, overrideScore: null }));
    expect(summary(combined)).toEqual([
      'Dayton|Location|city|gazetteer',
      'Erbil|Location|city|gazetteer',
      'Ministry of Peshmerga Affairs|Actor|government|ner',
      'officials|Actor|unknown|ner',
    ]);
  });

  it('drops model spans below the score floor', () => {
    const combined = combineMentions(RULES, MODEL, policy({ minScore: 0.8, overrideScore: null }));
    expect(summary(combined)).not.toContain('officials|Actor|unknown|ner');
    expect(summary(combined)).toContain('Ministry of Peshmerga Affairs|Actor|government|ner');
  });

  it('lets a confident model span that contains a shorter rule hit of another family replace it', () => {
    const combined = combineMentions(RULES, MODEL, policy({ minScore: 0.5, overrideScore: 0.9 }));
    expect(summary(combined)).toEqual([
      'Erbil|Location|city|gazetteer',
      'Ministry of Peshmerga Affairs|Actor|government|ner',
      'Scott C. Dayton|Actor|individual|ner',
    ]);
  });

  it('never overrides below the override score, nor a rule mention it agrees with', () => {
    const unsure = combineMentions(RULES, [entity('Scott C. Dayton', 'PER', 0.85)], policy({ minScore: 0, overrideScore: 0.9 }));
    expect(summary(unsure)).toEqual(['Dayton|Location|city|gazetteer', 'Erbil|Location|city|gazetteer']);
    // Same span, same family: the rule mention (with its finer type and canonical name) stays.
    const agreeing = combineMentions(RULES, [entity('Erbil', 'LOC', 0.99)], policy({ minScore: 0, overrideScore: 0.9 }));
    expect(agreeing).toEqual(RULES);
  });

  it('does not override a rule mention the model span only partly covers', () => {
    const partial: EntityMention = { ...at('Peshmerga Affairs in Erbil'), kind: 'Actor', actor_type: 'government', confidence: 0.7, source: 'pattern' };
    const combined = combineMentions([partial], [entity('Ministry of Peshmerga Affairs', 'ORG', 0.99)], policy({ overrideScore: 0.9 }));
    expect(combined).toEqual([partial]);
  });

  it('adds only the families the policy allows', () => {
    const personsOnly = combineMentions([], MODEL, policy({ minScore: 0, families: ['person'] }));
    expect(summary(personsOnly)).toEqual(['Scott C. Dayton|Actor|individual|ner']);
  });

  it('reads the label conventions of hub models and ignores other types', () => {
    expect(['B-PER', 'I-PERSON', 'ORG', 'S-GPE', 'E-LOC', 'B-MISC', 'DATE'].map(nerFamily)).toEqual(['person', 'person', 'organisation', 'location', 'location', undefined, undefined]);
  });

  it('is what collectMentions applies, with the default policy when none is given', () => {
    const findings = { ...emptyFindings(), locations: [{ ...at('Dayton'), location_type: 'city' as const, confidence: 0.8, source: 'gazetteer' as const }] };
    const byDefault = collectMentions(TEXT, findings, MODEL);
    const explicit = collectMentions(TEXT, findings, MODEL, DEFAULT_COMBINATION);
    expect(byDefault).toEqual(explicit);
    // The default adds confident persons and places only: Erbil (0.99) but not the ministry (0.85).
    expect(byDefault.map((m) => `${m.text}|${m.source}`)).toEqual(['Dayton|gazetteer', 'Erbil|ner']);
    const overriding = collectMentions(TEXT, findings, MODEL, policy({ minScore: 0.5, overrideScore: 0.9 }));
    expect(overriding.map((m) => m.text)).toEqual(['Scott C. Dayton', 'Ministry of Peshmerga Affairs', 'Erbil']);
  });

  it('names every candidate policy once, the default among them', () => {
    expect(new Set(COMBINATION_POLICIES.map((p) => p.name)).size).toBe(COMBINATION_POLICIES.length);
    expect(COMBINATION_POLICIES).toContain(DEFAULT_COMBINATION);
  });
});
