import {
  TIER_EDGE_TYPES,
  TIER_NODE_KINDS,
  TIMESTAMP_OF_INGESTION,
  type EdgeType,
  type NodeKind,
  type PropertyValue,
  type Provenance,
  type WorkspaceTier,
} from '../../ontology/index.ts';
import { deriveEdgeId, deriveNodeId } from '../../store/ids.ts';
import type { DateMention, DocumentInput, Findings, NeuralEntity, TextSpan } from '../types.ts';
import { EntityResolver, type ActorDirectory, type EntityRef, type ResolvedEntity } from './coreference.ts';
import { findInterests } from './interests.ts';
import { findIssues } from './issues.ts';
import type { CombinationPolicy } from './combine.ts';
import { collectMentions } from './mentions.ts';
import { sameOccurrences } from './occurrences.ts';
import { sentenceAround, sentenceStartBefore } from './sentences.ts';
import { referenceUnsure } from '../symbolic/relations.ts';
import { namesFormation } from '../symbolic/units.ts';
import { spanContains } from '../symbolic/text.ts';

/**
 * Stage 3 of structuring: resolved entities and findings → the nodes and edges one
 * document adds to a graph, each with deterministic ids and provenance that quotes the
 * document exactly. Pure: the same input always gives the same output.
 */

/**
 * Provenance records one node keeps from one document: its first mentions, pronouns and
 * descriptions standing for it included (bounds record size on long texts; a statement's main
 * actor is named, described or referred to by a pronoun a few dozen times).
 */
export const MAX_PROVENANCE_PER_NODE = 50;
/** Longest event label, in characters (the label is part of the event's identity). */
const MAX_EVENT_LABEL_CHARS = 160;
/** Longest quote on a Document node's provenance: its first line, up to this many characters. */
const MAX_DOCUMENT_QUOTE_CHARS = 200;

export interface StructuredNode {
  id: string;
  labels: [NodeKind];
  properties: Record<string, PropertyValue>;
  confidence: number;
  provenance: Provenance[];
}

export interface StructuredEdge {
  id: string;
  type: EdgeType;
  from: string;
  to: string;
  properties: Record<string, PropertyValue>;
  confidence: number;
  provenance: Provenance[];
}

/** What one document writes: the shape of the store's GraphWrite. */
export interface StructuredDocument {
  nodes: StructuredNode[];
  edges: StructuredEdge[];
}

export interface StructureInput {
  document: DocumentInput;
  documentId: string;
  sha256: string;
  title?: string;
  findings: Findings;
  /** Transformer spans, or null when no model is configured. */
  neural: readonly NeuralEntity[] | null;
  /** How symbolic mentions and transformer spans combine; DEFAULT_COMBINATION when absent. */
  combination?: CombinationPolicy;
  tier: WorkspaceTier;
  /** Symbolic layer and model with versions, as every provenance record names them. */
  extractor: string;
  /** When the graph learned of the document: the timestamp of facts the document does not date. */
  ingestedAt: string;
  /** The graph's existing actors, for resolution across documents. */
  directory?: ActorDirectory;
  /** Memberships the graph knows from earlier documents (MEMBER_OF edges). */
  isMemberOf?: (memberId: string, organisationId: string) => boolean;
}

/** Actor types that are conflict parties when they act or speak in the conflict. */
const PARTY_TYPES = new Set(['state', 'government', 'armed_forces', 'armed_group', 'political_party', 'individual', 'community', 'police', 'company']);

export function structureDocument(input: StructureInput): StructuredDocument {
  const { text, source } = input.document;
  const documentTimestamp = input.document.document_date ?? input.ingestedAt;
  const provenance = (span: TextSpan, timestamp = documentTimestamp): Provenance => ({
    source, timestamp,
    // an undated document's facts are stamped when they were ingested (ontology.md), which is no time in the world:
    // said so, so that a valid-time reading (store/view.ts validTime) does not take them as said today
    ...(input.document.document_date === undefined && timestamp === input.ingestedAt ? { timestamp_of: TIMESTAMP_OF_INGESTION } : {}),
    document_id: input.documentId, span: { start: span.start, end: span.end },
    quote: text.slice(span.start, span.end), extractor: input.extractor,
  });

  const mentions = collectMentions(text, input.findings, input.neural, input.combination);
  // Names the graph learned from earlier documents, where this document's extractors saw nothing.
  for (const known of input.directory?.occurrences(text) ?? []) {
    if (!mentions.some((mention) => mention.start < known.end && known.start < mention.end)) mentions.push(known);
  }
  const resolver = new EntityResolver(text, mentions, input.directory);
  const nodes = new Map<string, StructuredNode>();
  const edges = new Map<string, StructuredEdge>();
  /** Where each node is first grounded in this document, for its MENTIONED_IN edge. */
  const groundings = new Map<string, TextSpan>();
  const engagement = new Map<string, Set<string>>();
  const engage = (actorId: string, how: string) => {
    if (!engagement.has(actorId)) engagement.set(actorId, new Set());
    engagement.get(actorId)!.add(how);
  };

  const addNode = (kind: NodeKind, properties: Record<string, PropertyValue>, rawConfidence: number, span: TextSpan, timestamp?: string): string => {
    const confidence = roundConfidence(rawConfidence);
    const id = deriveNodeId(kind, properties);
    const existing = nodes.get(id);
    if (existing) {
      existing.confidence = Math.max(existing.confidence, confidence);
      addProvenance(existing.provenance, provenance(span, timestamp));
    } else {
      nodes.set(id, { id, labels: [kind], properties, confidence, provenance: [provenance(span, timestamp)] });
      groundings.set(id, span);
    }
    return id;
  };
  const addEdge = (type: EdgeType, from: string, to: string, rawConfidence: number, span: TextSpan, properties: Record<string, PropertyValue> = {}): void => {
    if (from === to) return;
    const confidence = roundConfidence(rawConfidence);
    const id = deriveEdgeId(type, from, to, properties);
    const existing = edges.get(id);
    if (existing) {
      existing.confidence = Math.max(existing.confidence, confidence);
      addProvenance(existing.provenance, provenance(span));
    } else {
      edges.set(id, { id, type, from, to, properties, confidence, provenance: [provenance(span)] });
    }
  };

  // Stated relations between actors (first: claims need to know who belongs to whom).
  const memberships: [string, string][] = [];
  /** "from to" keys of the allied pairs, both ways. */
  const alliances = new Set<string>();
  // Memberships first: a party never opposes its own organisation, nor an organisation its own members.
  const relations = [...input.findings.relations].sort((a, b) => Number(b.type === 'MEMBER_OF') - Number(a.type === 'MEMBER_OF'));
  const isMemberOf = (member: string, organisation: string) =>
    memberships.some(([m, o]) => m === member && o === organisation) || (input.isMemberOf?.(member, organisation) ?? false);
  const ownSide = (a: string, b: string) => isMemberOf(a, b) || isMemberOf(b, a);
  /** A party to the conflict, and not one who speaks for a UN body, a rights group or the media ("the UN envoy"). */
  const isParty = (id: string) => {
    const party = (actor: string) => {
      const typing = resolver.actorTyping(actor);
      return typing !== undefined && PARTY_TYPES.has(typing.type) && !typing.guessed;
    };
    return party(id) && !memberships.some(([member, organisation]) => member === id && !party(organisation));
  };
  /**
   * Whether a side taken between the two actors is stated: the document names both (a node made only of
   * descriptions, "regime forces", "the government" with no name before it, is no party), and neither is
   * read from a guessed description ("the group accused the junta", the junta resolved to the only
   * government named after it). A membership takes no side.
   */
  const statedBetween = (type: string, from: string, to: string, ...spans: TextSpan[]) =>
    type === 'MEMBER_OF' || (resolver.isNamed(from) && resolver.isNamed(to) && !spans.some((span) => resolver.isGuess(span)));
  /** The oppositions stated between two actors, to carry each unit's to the forces it belongs to. */
  const unitFights: { sides: [string, string]; confidence: number; span: TextSpan }[] = [];
  /** The actors named as a unit of the force they are a member of ("9th Armoured Division"; not "Chadian troops, part of the MNJTF"). */
  const units = new Set<string>();
  for (const relation of relations) {
    const from = resolver.resolveSpan(relation.from, 'Actor', true);
    const to = resolver.resolveSpan(relation.to, 'Actor', true);
    if (!from || !to || (relation.type === 'OPPOSES' && ownSide(from.id, to.id)) || !statedBetween(relation.type, from.id, to.id, relation.from, relation.to)) continue;
    addEdge(relation.type, from.id, to.id, relation.confidence, relation);
    if (relation.type === 'MEMBER_OF') memberships.push([from.id, to.id]);
    if (relation.type === 'MEMBER_OF' && namesFormation(text.slice(relation.from.start, relation.from.end))) units.add(from.id);
    if (relation.type === 'ALLIED_WITH') alliances.add(`${from.id} ${to.id}`).add(`${to.id} ${from.id}`);
    if (relation.type === 'OPPOSES') {
      engage(from.id, 'opposes');
      engage(to.id, 'opposes');
      unitFights.push({ sides: [from.id, to.id], confidence: relation.confidence, span: relation });
    }
  }
  // "The Iraqi army's 9th Armoured Division retook Badush from Daesh": a unit of a state's forces fights for
  // them ("X's forces attacked Y" is X's act). A person's fight is not his organisation's, nor a member's its coalition's.
  for (const { sides, confidence, span } of unitFights) {
    for (const [unit, enemy] of [sides, [sides[1], sides[0]]]) {
      if (!units.has(unit) || resolver.actorTypeOf(unit) !== 'armed_forces') continue;
      for (const [member, force] of memberships) {
        if (member !== unit || resolver.actorTypeOf(force) !== 'armed_forces') continue;
        if (force === enemy || ownSide(force, enemy) || alliances.has(`${force} ${enemy}`)) continue;
        addEdge('OPPOSES', force, enemy, confidence * UNIT_FIGHT_FACTOR, span);
        engage(force, 'opposes');
      }
    }
  }

  // Claims: the speaker asserts, the claim targets, is about issues and states the speaker's interests.
  const stated: StatedClaim[] = [];
  for (const claim of input.findings.claims) {
    const speaker = claim.speaker ? resolver.resolveSpan(claim.speaker, 'Actor', true, true) : undefined;
    // A claim is aimed at others (in text order): never at its speaker, nor at the speaker's own organisation.
    const targetSpans = [...claim.targets].sort((a, b) => a.start - b.start);
    const targets = uniqueEntities(targetSpans.map((span) => resolver.resolveSpan(span, 'Actor', true))).filter(
      (target) => target.id !== speaker?.id && !(speaker && isMemberOf(speaker.id, target.id)),
    );
    const properties: Record<string, PropertyValue> = { type: claim.type, text: claim.text };
    if (speaker) properties.speaker = speaker.id;
    const claimId = addNode('Claim', properties, claim.confidence, claim);
    if (speaker) {
      addEdge('ASSERTS', speaker.id, claimId, claim.confidence, cover(claim, claim.speaker!));
      engage(speaker.id, 'speaker');
    }
    for (const target of targets) {
      addEdge('TARGETS', claimId, target.id, claim.confidence, claim);
      engage(target.id, 'target');
    }
    // Accusing an actor is taking a side against it (unless the document says they are allies); a threat is only
    // a possibility ("threatened to strike"), and a condemnation a stance ("the Council condemned the offensive"), no stated opposition.
    // Only the accused: the first actor after the cue and before "of"/"for" ("accused A of arming B" is against A;
    // in "the UAE, which it accuses of arming the RSF" and "the army ... officers he blamed" no named actor is accused),
    // or the other party of "X and Y accused each other".
    const accuses = claim.type === 'Accusation' && !CONDEMNING.test(text.slice(claim.cue.start, claim.cue.end));
    const afterCue = text.slice(claim.cue.end, claim.end);
    const charge = afterCue.search(/\b(?:of|for)\b/);
    const mutual = /^\s+(?:each other|one another)\b/.test(afterCue);
    // A possessive is no one accused: "blamed on the group and its allies" accuses the allies, not whoever "its" stands for.
    const accused = accuses
      ? targetSpans.find((span) => !POSSESSIVES.test(text.slice(span.start, span.end)) &&
        (mutual ? span.end <= claim.cue.start : span.start >= claim.cue.end && (charge === -1 || span.start < claim.cue.end + charge)))
      : undefined;
    const accusedId = accused ? resolver.resolveSpan(accused, 'Actor', true)?.id : undefined;
    const aimedAt = speaker && accusedId && targets.some((target) => target.id === accusedId) ? accusedId : undefined;
    // Only a party's accusation is hostile: a UN body, a rights group or the media, or one who speaks for them,
    // reports what it accuses, as "the UN said" does.
    // "It accused Turkey of helping ISIS": a pronoun or a description never stands for a name later in its own clause, so
    // a speaker resolved to one is a misreading, and no opposition of its is stated.
    const speakerReference = claim.speaker && input.findings.actors.some((actor) => actor.start === claim.speaker!.start && actor.reference);
    const speakerNamedAfter = speakerReference && input.findings.actors.some((actor) =>
      !actor.reference && actor.start >= claim.speaker!.end && actor.end <= claim.end && resolver.resolveSpan(actor, 'Actor', true)?.id === speaker?.id);
    // "accused the group of ...", its antecedent's sentence naming two groups: whom it accuses is a guess.
    const accusedUnsure = () => referenceUnsure(input.findings.actors, (position) => sentenceAround(text, { start: position, end: position }), accused!, claim.speaker);
    if (speaker && aimedAt && !speakerNamedAfter && !accusedUnsure() && statedBetween('OPPOSES', speaker.id, aimedAt, claim.speaker!, accused!) && isParty(speaker.id) && !alliances.has(`${speaker.id} ${aimedAt}`) && !ownSide(speaker.id, aimedAt)) {
      addEdge('OPPOSES', speaker.id, aimedAt, claim.confidence * HOSTILE_CLAIM_FACTOR, claim);
    }
    const issueIds: string[] = [];
    for (const issue of findIssues(claim.text)) {
      const span = { start: claim.start + issue.start, end: claim.start + issue.end };
      const issueId = addNode('Issue', { label: issue.label }, claim.confidence, span);
      addEdge('ABOUT', claimId, issueId, claim.confidence, span);
      issueIds.push(issueId);
    }
    if (speaker) {
      for (const interest of findInterests(claim.text)) {
        const span = { start: claim.start + interest.start, end: claim.start + interest.end };
        const interestId = addNode('Interest', { label: interest.label, interest_type: interest.interest_type }, claim.confidence, span);
        addEdge('HOLDS_INTEREST', speaker.id, interestId, claim.confidence, span);
        // stated in a claim about an issue, the interest is at stake in that issue
        for (const issueId of issueIds) addEdge('CONCERNS', interestId, issueId, claim.confidence, span);
      }
    }
    stated.push({ id: claimId, type: claim.type, speaker: speaker?.id, targets: targets.map((target) => target.id), issues: issueIds, span: claim, confidence: claim.confidence });
  }
  for (const [later, earlier] of contradictions(stated, isMemberOf)) {
    addEdge('CONTRADICTS', later.id, earlier.id, Math.min(later.confidence, earlier.confidence) * CONTRADICTION_FACTOR, later.span);
  }

  // Events: who took part in what role, where, when; the mentions of one occurrence are one node (./occurrences.ts).
  const events = input.findings.events.map((event) => {
    const participants = event.participants.flatMap((participant) => {
      const actor = resolver.resolveSpan(participant, 'Actor', true);
      return actor ? [{ id: actor.id, role: participant.role }] : [];
    });
    const place = event.location ? resolver.resolveSpan(event.location, 'Location', true) : undefined;
    return { event, date: eventDate(text, event, input.findings.dates), label: eventLabel(text, event.trigger, event), participants, place: place?.id };
  });
  const occurrences = sameOccurrences(text, events.map(({ event, date, participants, place }) => ({
    event_type: event.event_type, span: event, trigger: event.trigger, ...(date ? { date } : {}), ...(place ? { place } : {}),
    perpetrators: participants.filter((p) => p.role === 'perpetrator').map((p) => p.id),
    targets: participants.filter((p) => p.role === 'target').map((p) => p.id),
  })));
  const dated: DatedEvent[] = [];
  const toldEvents: { id: string; span: TextSpan }[] = [];
  for (const members of occurrences) {
    const told = members.map((index) => events[index]);
    // The fullest label names the occurrence ("hit a market in Alamata" over "strike"); its date is the first one stated.
    const label = told.reduce((best, mention) => (mention.label.length > best.length ? mention.label : best), told[0].label);
    const date = told.find((mention) => mention.date)?.date;
    const properties: Record<string, PropertyValue> = { event_type: told[0].event.event_type, label };
    if (date) properties.date = date;
    const sizes = told.flatMap((mention) => (mention.event.size === undefined ? [] : [mention.event.size]));
    if (sizes.length > 0) properties.size = Math.max(...sizes);
    let eventId = '';
    for (const { event, participants, place } of told) {
      eventId = addNode('Event', properties, event.confidence, event, date ?? documentTimestamp);
      for (const participant of participants) {
        addEdge('PARTICIPATES_IN', participant.id, eventId, event.confidence, event, { role: participant.role });
        engage(participant.id, participant.role);
      }
      if (place) addEdge('OCCURRED_AT', eventId, place, event.confidence, event);
      toldEvents.push({ id: eventId, span: event.trigger });
    }
    const first = told[0].event;
    if (date && !dated.some((known) => known.id === eventId)) dated.push({ id: eventId, date, span: first, confidence: first.confidence });
  }

  // A claim whose words report an event (a justification of a strike, a grievance about an eviction) speaks of it.
  for (const claim of stated) {
    for (const event of toldEvents) if (spanContains(claim.span, event.span)) addEdge('REFERS_TO', claim.id, event.id, claim.confidence, claim.span);
  }

  for (const [earlier, later] of successions(dated)) {
    addEdge('PRECEDES', earlier.id, later.id, Math.min(earlier.confidence, later.confidence), later.span);
  }

  // An organisation whose commander or spokesman acts or speaks is engaged through them.
  for (const [member, organisation] of memberships) if (engagement.has(member)) engage(organisation, 'through_member');

  // Entities last: resolving the findings' spans above may have created or grown them.
  for (const entity of resolver.entities()) {
    const properties = entityProperties(entity, engagement.get(entity.id));
    nodes.set(entity.id, {
      id: entity.id, labels: [entity.kind], properties, confidence: entity.confidence,
      provenance: dedupeSpans(entity.mentions).slice(0, MAX_PROVENANCE_PER_NODE).map((span) => provenance(span)),
    });
    groundings.set(entity.id, entity.mentions[0]);
  }

  const documentNode = buildDocumentNode(input, documentTimestamp, provenance);
  for (const [id, span] of groundings) {
    const node = nodes.get(id)!;
    addEdge('MENTIONED_IN', id, documentNode.id, node.confidence, span);
  }

  return filterByTier(
    { nodes: [documentNode, ...orderNodes([...nodes.values()])], edges: [...edges.values()] },
    input.tier,
  );
}

/** An opposition read from one accusation is less certain than the claim itself. */
const HOSTILE_CLAIM_FACTOR = 0.8;
/** A force's opposition read from its unit's fight is less certain than the fight itself. */
const UNIT_FIGHT_FACTOR = 0.9;
/** Cues of an accusation that only condemn or criticise: a stance, not a side taken in the conflict. */
const CONDEMNING = /^(?:condemn|denounc|deplor|critici[sz])/i;
/** Possessive determiners: one names whose the accused are, not the accused. */
const POSSESSIVES = /^(?:its|their|his|our)$/i;
/** A contradiction is inferred from two claims' types and issues, so it is less certain than either. */
const CONTRADICTION_FACTOR = 0.8;
/** Dated events of one document ordered by PRECEDES (bounds the pairwise date comparison). */
const MAX_DATED_EVENTS = 200;

interface StatedClaim {
  id: string;
  type: string;
  speaker?: string;
  targets: string[];
  issues: string[];
  span: TextSpan;
  confidence: number;
}

/**
 * Claim types that cannot both hold when two sides say them about the same issue: a denial
 * answers an accusation or a commitment, a red line refuses a demand or an offer.
 */
const OPPOSED_STANCES: readonly [string, string][] = [
  ['Accusation', 'Denial'], ['Commitment', 'Denial'], ['Demand', 'RedLine'], ['Offer', 'RedLine'],
];

/**
 * Pairs [later, earlier] of claims by different speakers (neither a member of the other) with
 * opposed stances, either about a shared issue or aimed at each other: B denying after A accused
 * B is a contradiction even when the words name no issue.
 */
function contradictions(claims: readonly StatedClaim[], isMemberOf: (member: string, organisation: string) => boolean): [StatedClaim, StatedClaim][] {
  const pairs: [StatedClaim, StatedClaim][] = [];
  claims.forEach((later, index) => {
    for (let e = 0; e < index; e++) {
      const earlier = claims[e];
      if (!later.speaker || !earlier.speaker || later.speaker === earlier.speaker || later.id === earlier.id) continue;
      if (isMemberOf(later.speaker, earlier.speaker) || isMemberOf(earlier.speaker, later.speaker)) continue;
      if (!OPPOSED_STANCES.some(([a, b]) => (later.type === a && earlier.type === b) || (later.type === b && earlier.type === a))) continue;
      const sharedIssue = later.issues.some((issue) => earlier.issues.includes(issue));
      const answers = [later.type, earlier.type].includes('Accusation') && (earlier.targets.includes(later.speaker) || later.targets.includes(earlier.speaker));
      if (sharedIssue || answers) pairs.push([later, earlier]);
    }
  });
  return pairs;
}

interface DatedEvent {
  id: string;
  /** ISO 8601: a day, a month or a year. */
  date: string;
  span: TextSpan;
  confidence: number;
}

/**
 * PRECEDES pairs [earlier, later] between dated events: each event to the events of the next
 * date that is surely after its own (a month and a day in it are not ordered), so the order
 * is a chain and the graph holds no edge the others already imply.
 */
function successions<T extends { date: string }>(events: readonly T[]): [T, T][] {
  const bounded = events.slice(0, MAX_DATED_EVENTS);
  const dates = [...new Set(bounded.map((event) => event.date))].sort();
  const pairs: [T, T][] = [];
  for (const date of dates) {
    const after = dates.filter((other) => surelyBefore(date, other));
    const next = after.filter((candidate) => !after.some((between) => surelyBefore(between, candidate)));
    for (const event of bounded.filter((e) => e.date === date)) {
      for (const later of bounded.filter((e) => next.includes(e.date))) pairs.push([event, later]);
    }
  }
  return pairs;
}

/** Whether every day of ISO date `a` (a day, month or year) comes before every day of `b`. */
function surelyBefore(a: string, b: string): boolean {
  return a < b && !b.startsWith(a) && !a.startsWith(b);
}

function entityProperties(entity: ResolvedEntity, engagement: Set<string> | undefined): Record<string, PropertyValue> {
  if (entity.kind === 'Location') {
    const properties: Record<string, PropertyValue> = { label: entity.label, location_type: entity.location_type ?? 'other', aliases: entity.aliases };
    if (entity.country_code) properties.country_code = entity.country_code;
    return properties;
  }
  return { label: entity.label, actor_type: entity.actor_type ?? 'unknown', role: conflictRole(entity, engagement), aliases: entity.aliases };
}

/**
 * The conflict role one document supports: a mediator when it mediates an event, an
 * adjudicator when a court acts or speaks (it decides, it takes no side), a party when a
 * state, armed or political actor (or someone of its ranks) acts, speaks, is targeted or
 * opposes; otherwise unknown (a role known from other documents is kept by the ingest stage).
 */
function conflictRole(entity: ResolvedEntity, engagement: Set<string> | undefined): string {
  if (!engagement) return 'unknown';
  if (engagement.has('mediator')) return 'mediator';
  if (entity.actor_type === 'court') return 'adjudicator';
  return PARTY_TYPES.has(entity.actor_type ?? 'unknown') ? 'party' : 'unknown';
}

function buildDocumentNode(input: StructureInput, timestamp: string, provenance: (span: TextSpan, timestamp?: string) => Provenance): StructuredNode {
  const { text, source } = input.document;
  const properties: Record<string, PropertyValue> = { source, sha256: input.sha256, length: text.length, ingested_at: input.ingestedAt };
  if (input.title) properties.title = input.title;
  if (input.document.document_date) properties.published_at = input.document.document_date;
  const leading = text.length - text.trimStart().length;
  const lineEnd = text.indexOf('\n', leading);
  const end = Math.min(lineEnd === -1 ? text.length : lineEnd, leading + MAX_DOCUMENT_QUOTE_CHARS);
  return { id: input.documentId, labels: ['Document'], properties, confidence: 1, provenance: [provenance({ start: leading, end }, timestamp)] };
}

const KIND_ORDER: readonly NodeKind[] = ['Actor', 'Location', 'Claim', 'Event', 'Issue', 'Interest'];
function orderNodes(nodes: StructuredNode[]): StructuredNode[] {
  return nodes
    .map((node, position) => ({ node, position }))
    .sort((a, b) => KIND_ORDER.indexOf(a.node.labels[0]) - KIND_ORDER.indexOf(b.node.labels[0]) || a.position - b.position)
    .map(({ node }) => node);
}

export function filterByTier(graph: StructuredDocument, tier: WorkspaceTier): StructuredDocument {
  const kinds = new Set<string>(TIER_NODE_KINDS[tier]);
  const types = new Set<string>(TIER_EDGE_TYPES[tier]);
  const nodes = graph.nodes.filter((node) => kinds.has(node.labels[0]));
  const kept = new Set(nodes.map((node) => node.id));
  const edges = graph.edges.filter((edge) => types.has(edge.type) && kept.has(edge.from) && kept.has(edge.to));
  return { nodes, edges };
}

/** Adds a provenance record unless one for the same span is there, up to MAX_PROVENANCE_PER_NODE. */
export function addProvenance(records: Provenance[], record: Provenance): void {
  if (records.length >= MAX_PROVENANCE_PER_NODE) return;
  if (records.some((known) => known.span?.start === record.span?.start && known.span?.end === record.span?.end)) return;
  records.push(record);
}

function dedupeSpans(spans: readonly TextSpan[]): TextSpan[] {
  const seen = new Set<string>();
  return spans.filter((span) => {
    const key = `${span.start}:${span.end}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function uniqueEntities(entities: (EntityRef | undefined)[]): EntityRef[] {
  const byId = new Map<string, EntityRef>();
  for (const entity of entities) if (entity && !byId.has(entity.id)) byId.set(entity.id, entity);
  return [...byId.values()];
}

function cover(a: TextSpan, b: TextSpan): TextSpan {
  return { start: Math.min(a.start, b.start), end: Math.max(a.end, b.end) };
}

/** "attacked El Fasher": from the trigger to the end of the event's clause, as one line. */
function eventLabel(text: string, trigger: TextSpan, event: TextSpan): string {
  const end = Math.max(event.end, trigger.end);
  const label = text.slice(trigger.start, end).replace(/\s+/g, ' ').trim().replace(/[\s,;:.]+$/, '');
  return label.slice(0, MAX_EVENT_LABEL_CHARS) || text.slice(trigger.start, trigger.end);
}

/**
 * The event's date: the one the symbolic layer linked, else a date inside the event's
 * span, else the nearest date before it in the same sentence ("On 3 March ... attacked").
 */
function eventDate(text: string, event: { start: number; end: number; date?: TextSpan }, dates: readonly DateMention[]): string | undefined {
  const overlapping = (span: TextSpan) => dates.find((date) => date.start < span.end && span.start < date.end);
  if (event.date) return overlapping(event.date)?.iso;
  const inside = overlapping(event);
  if (inside) return inside.iso;
  const sentenceStart = sentenceStartBefore(text, event.start);
  const before = dates.filter((date) => date.start >= sentenceStart && date.end <= event.start);
  return before.length > 0 ? before[before.length - 1].iso : undefined;
}

/** Confidences are estimates: two decimals say all they know (0.56, not 0.5599999999999999). */
export function roundConfidence(value: number): number {
  return Math.round(value * 100) / 100;
}
