import type { DocumentInput, EventMention, Findings, RelationMention } from '../types.ts';
import { findClaims } from './claims.ts';
import { findDates } from './dates.ts';
import { findEntities } from './entities.ts';
import { findEvents } from './events.ts';
import { findRelations } from './relations.ts';
import { matchingText, remapSpans } from './normalise.ts';
import { splitSentences, tokenize } from './text.ts';
import { unitMemberships } from './units.ts';
import { SYMBOLIC_EXTRACTOR_VERSION } from './version.ts';

export { SYMBOLIC_EXTRACTOR_VERSION };

/**
 * The symbolic conflict layer: gazetteer, patterns and lexicons only, so it
 * stands on its own when no transformer model is configured. Synchronous and
 * pure (the gazetteers are built once per process on first use).
 */

export function findConflictEntities(doc: DocumentInput): Findings {
  const matching = matchingText(doc.text);
  const { text } = matching;
  const tokens = tokenize(text);
  const sentences = splitSentences(text, tokens);
  const dates = findDates(text, doc.document_date);
  const { actors, locations } = findEntities(text, tokens, sentences, dates);
  const relations = findRelations(tokens, sentences, actors);
  relations.push(...unitMemberships(text, tokens, actors));
  const claims = findClaims(text, tokens, sentences, actors, relations);
  const events = findEvents(text, tokens, sentences, actors, locations, dates, relations, claims);
  relations.push(...oppositionsFromAssaults(events, relations));
  return remapSpans({ actors, locations, dates, claims, events, relations }, matching, doc.text);
}

/** An actor that attacks another opposes it. */
function oppositionsFromAssaults(events: EventMention[], relations: RelationMention[]): RelationMention[] {
  const found: RelationMention[] = [];
  for (const event of events) {
    if (event.event_type !== 'ASSAULT') continue;
    const perpetrator = event.participants.find((p) => p.role === 'perpetrator');
    const target = event.participants.find((p) => p.role === 'target');
    if (!perpetrator || !target) continue;
    const known = [...relations, ...found].some((r) => r.type === 'OPPOSES' && r.from.start === perpetrator.start && r.to.start === target.start);
    if (known) continue;
    found.push({
      type: 'OPPOSES',
      start: Math.min(perpetrator.start, target.start),
      end: Math.max(perpetrator.end, target.end),
      from: { start: perpetrator.start, end: perpetrator.end },
      to: { start: target.start, end: target.end },
      confidence: 0.6,
    });
  }
  return found;
}
