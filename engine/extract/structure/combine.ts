import type { NeuralEntity, TextSpan } from '../types.ts';
import { inferLocationType, inferOrganisationType, type EntityMention } from './entity-mention.ts';

/**
 * How the symbolic layer's mentions and the transformer's spans become one list. The symbolic
 * layer knows conflict actors by name and types them finely; the model finds names the gazetteer
 * lacks and reads a name as a whole where a greedy gazetteer hit takes part of it (the
 * city "Dayton" inside "Scott C. Dayton"). Which of the two wins where they disagree is a
 * policy, chosen by measurement (`npm run eval:extract -- --policies` prints the table).
 */
export interface CombinationPolicy {
  /** Name shown by the eval. */
  name: string;
  /** Model spans scoring below this are ignored (the score is the mean word probability of the span). */
  minScore: number;
  /**
   * A model span that reaches this score and strictly contains symbolic mentions of another
   * family, or of the same family but shorter, replaces them; null never replaces (model
   * spans only fill gaps).
   */
  overrideScore: number | null;
  /** Families the model may add at all ('person', 'organisation', 'location'). */
  families: readonly NerFamily[];
}

export type NerFamily = 'person' | 'organisation' | 'location';

const ALL_FAMILIES: readonly NerFamily[] = ['person', 'organisation', 'location'];

/** The candidates the eval compares; DEFAULT_COMBINATION is the one that measured best on corpora/gold/dev.jsonl. */
export const COMBINATION_POLICIES: readonly CombinationPolicy[] = [
  { name: 'fill gaps', minScore: 0, overrideScore: null, families: ALL_FAMILIES },
  { name: 'fill gaps >= 0.8', minScore: 0.8, overrideScore: null, families: ALL_FAMILIES },
  { name: 'fill gaps + override >= 0.9', minScore: 0, overrideScore: 0.9, families: ALL_FAMILIES },
  { name: 'fill gaps >= 0.8 + override >= 0.9', minScore: 0.8, overrideScore: 0.9, families: ALL_FAMILIES },
  { name: 'persons only, fill gaps + override >= 0.9', minScore: 0, overrideScore: 0.9, families: ['person'] },
  { name: 'places only, fill gaps >= 0.8', minScore: 0.8, overrideScore: null, families: ['location'] },
  { name: 'persons and places, fill gaps >= 0.8', minScore: 0.8, overrideScore: null, families: ['person', 'location'] },
  { name: 'places only, fill gaps >= 0.9', minScore: 0.9, overrideScore: null, families: ['location'] },
  { name: 'persons and places, fill gaps >= 0.9', minScore: 0.9, overrideScore: null, families: ['person', 'location'] },
];

/**
 * On the dev set the symbolic layer already finds nearly every actor (F1 0.94), so model organisation
 * spans (typed only by their name) cost precision and model person spans changed nothing;
 * confident model places raised place F1 from 0.85 to 0.88. "persons and places >= 0.9" measured
 * the same as "places only >= 0.9" (the best) and keeps the model's persons, the class the symbolic
 * layer misses most on unseen official text.
 */
export const DEFAULT_COMBINATION: CombinationPolicy = COMBINATION_POLICIES.find((p) => p.name === 'persons and places, fill gaps >= 0.9')!;

const NER_FAMILIES: readonly [RegExp, NerFamily][] = [
  [/^(PER|PERSON)$/i, 'person'],
  [/^(ORG|ORGANI[SZ]ATION|NORP)$/i, 'organisation'],
  [/^(LOC|LOCATION|GPE|FAC)$/i, 'location'],
];

/** The NER label families the structure stage uses; anything else (MISC, DATE...) is ignored. */
export function nerFamily(label: string): NerFamily | undefined {
  const bare = label.replace(/^[BIES]-/, '');
  return NER_FAMILIES.find(([pattern]) => pattern.test(bare))?.[1];
}

function familyOf(mention: EntityMention): NerFamily {
  if (mention.kind === 'Location') return 'location';
  return mention.actor_type === 'individual' ? 'person' : 'organisation';
}

const overlaps = (a: TextSpan, b: TextSpan) => a.start < b.end && b.start < a.end;
const contains = (outer: TextSpan, inner: TextSpan) => outer.start <= inner.start && inner.end <= outer.end;

/** A model span as a mention: persons are individuals, organisations and places typed by their names. */
export function mentionOfEntity(entity: NeuralEntity, family: NerFamily): EntityMention {
  const base = { start: entity.start, end: entity.end, text: entity.text, confidence: entity.score, source: 'ner' as const };
  if (family === 'location') return { ...base, kind: 'Location', location_type: inferLocationType(entity.text) };
  return { ...base, kind: 'Actor', actor_type: family === 'person' ? 'individual' : inferOrganisationType(entity.text) };
}

/**
 * The symbolic mentions, less those a confident model span overrides, plus the model spans
 * that no remaining symbolic mention overlaps. A model span overrides only when it contains
 * every symbolic mention it overlaps and differs from each (longer, or another family): the
 * model then read more of the name than the gazetteer hit did, or read it as another kind.
 */
export function combineMentions(symbolic: readonly EntityMention[], neural: readonly NeuralEntity[], policy: CombinationPolicy = DEFAULT_COMBINATION): EntityMention[] {
  const dropped = new Set<EntityMention>();
  const added: EntityMention[] = [];
  for (const entity of neural) {
    const family = nerFamily(entity.label);
    if (!family || !policy.families.includes(family) || entity.score < policy.minScore) continue;
    const overlapping = symbolic.filter((mention) => overlaps(mention, entity));
    if (overlapping.length === 0) {
      added.push(mentionOfEntity(entity, family));
      continue;
    }
    const overrides =
      policy.overrideScore !== null &&
      entity.score >= policy.overrideScore &&
      overlapping.every((mention) => contains(entity, mention) && (familyOf(mention) !== family || mention.end - mention.start < entity.end - entity.start));
    if (!overrides) continue;
    for (const mention of overlapping) dropped.add(mention);
    added.push(mentionOfEntity(entity, family));
  }
  return [...symbolic.filter((mention) => !dropped.has(mention)), ...added];
}
