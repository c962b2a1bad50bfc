/**
 * A generated conflict graph of about `target` facts (facts = nodes + edges + properties, as
 * bench/query.ts counts them), deterministic, for bench/frameworks.ts and profiling scripts.
 */
import { CLAIM_TYPES, INTEREST_TYPES, ACTOR_TYPES, type ActorRole, type ClaimType, type EdgeRecord, type EventType, type NodeRecord, type Provenance } from '../engine/ontology/index.ts';
import { GraphIndex } from '../engine/store/graph-index.ts';
import type { GraphWrite } from '../engine/store/store.ts';
import type { NodeInput } from '../engine/store/validate.ts';

/** A deterministic pseudo-random sequence, so every run measures the same graphs. */
function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/**
 * Values the ontology gained after the figures measured on generated graphs were first taken
 * (bench/frameworks.ts, docs/operations.md): the graph draws none of them, so that it stays the same graph and those
 * figures stay comparable.
 */
type AddedLater = 'Dehumanization' | 'ADJUDICATE' | 'LEGISLATE';
const ADDED_LATER = new Set<string>(['company', 'court', 'police', 'participation', 'Dehumanization', 'ADJUDICATE', 'LEGISLATE']);
const drawn = <T extends string>(values: readonly T[]) => values.filter((value) => !ADDED_LATER.has(value));
const DRAWN_ACTOR_TYPES = drawn(ACTOR_TYPES);
const DRAWN_INTEREST_TYPES = drawn(INTEREST_TYPES);
const DRAWN_CLAIM_TYPES = drawn(CLAIM_TYPES) as Exclude<ClaimType, AddedLater>[];

const START = Date.UTC(2023, 0, 1);
const DAYS = 730; // two years

const ROLES: [ActorRole, number][] = [
  ['party', 40], ['ally', 18], ['mediator', 8], ['guarantor', 4], ['spoiler', 6], ['victim', 10], ['observer', 9], ['unknown', 5],
];
const NAME_A = ['Northern', 'Southern', 'Eastern', 'Western', 'Central', 'United', 'Popular', 'National', 'Free', 'Revolutionary', 'Coastal', 'Highland'];
const NAME_B = ['Liberation Front', 'Armed Forces', 'Defence Forces', 'Council', 'Movement', 'Alliance', 'Union', 'Brigades', 'Party', 'Relief Committee', 'Elders Assembly', 'Press Association'];
const PLACES = ['El Fasher', 'the river valley', 'the northern districts', 'the capital', 'the border crossing', 'the oil fields', 'the port', 'the eastern highlands'];
const ISSUES = ['water rights', 'the border', 'power sharing', 'the oil revenue', 'land tenure', 'the election law', 'refugee return', 'disarmament', 'the status of the capital', 'language rights'];

/** Claim texts per type; {a} another actor, {p} a place, {i} an issue. Some carry the keywords frameworks look for, some none. */
const CLAIM_TEXTS: Record<Exclude<ClaimType, AddedLater>, string[]> = {
  RedLine: [
    'We will never accept a ceasefire that leaves {a} in {p}',
    'There will be no negotiation on {i}: our security is not for sale',
    'Our identity and our language are not negotiable',
    'We will fight to the last man before we give up {p}',
    'No talks until {a} withdraws from {p}',
  ],
  Demand: [
    '{a} must withdraw from {p} within a week',
    'We demand recognition of our rights under international law',
    'We demand an independent investigation of the killings in {p}',
    'We demand a fair share of {i}',
    'The government must hold the election it promised',
  ],
  Offer: [
    'We are ready to negotiate a ceasefire under a mediator',
    'We offer a joint commission on {i}, based on objective criteria',
    'We propose talks with {a} in a neutral venue',
    'We offer humanitarian corridors out of {p}',
  ],
  Concession: [
    'We accept the monitors on {i}',
    'We will release the prisoners taken in {p}',
    'We agree to postpone the vote on {i}',
  ],
  Commitment: [
    'We commit to respect the ceasefire agreement',
    'We will abide by the ruling of the court on {i}',
    'We pledge to protect civilians in {p}',
  ],
  Threat: [
    'We will annihilate {a} if they advance on {p}',
    'Any attack on {p} will be met with force',
    'We will wipe out their positions to the last',
    'Further sanctions will follow if {a} refuses',
  ],
  Accusation: [
    '{a} violates international law and the treaty',
    '{a} killed civilians in {p}, according to satellite footage',
    '{a} are terrorists and traitors',
    '{a} broke the ceasefire in {p}',
  ],
  Denial: [
    'We deny any involvement in the attack on {p}',
    'We refuse talks with {a}',
    'The reports about {p} are false',
  ],
  Grievance: [
    'Our community has been excluded from the election and humiliated',
    'Our security is threatened every day in {p}',
    'We are denied access to {i} and live in poverty',
    'Our religion and culture are not respected',
  ],
  Justification: [
    'The strike on {p} was self-defence: we had no choice',
    'They deserve no mercy after what they did in {p}',
    'The use of force is necessary to restore order',
  ],
  Position: [
    'The dispute over {i} belongs before the court',
    'We will not talk while the siege of {p} lasts',
    'The constitution gives the region autonomy over {i}',
    'Our mandate comes from the elected parliament',
  ],
};

/** One of `entries`, drawn from `random` with the chance its weight gives it. */
function weightedBy<T>(random: () => number, entries: [T, number][]): T {
  let r = random() * entries.reduce((sum, [, w]) => sum + w, 0);
  for (const [value, w] of entries) if ((r -= w) < 0) return value;
  return entries[entries.length - 1][0];
}

/** PLOVER types, weighted towards the violent ones as time goes on (an escalating conflict). */
const EVENT_WEIGHTS: Record<Exclude<EventType, AddedLater>, [number, number]> = {
  // [weight in the first month, weight in the last]
  AGREE: [4, 2], CONSULT: [8, 4], SUPPORT: [5, 4], CONCEDE: [2, 1], COOPERATE: [4, 2], AID: [4, 5], RETREAT: [2, 2], REQUEST: [5, 4],
  ACCUSE: [5, 7], REJECT: [3, 5], THREATEN: [3, 6], PROTEST: [6, 5], SANCTION: [2, 4], MOBILIZE: [3, 6], COERCE: [3, 6], ASSAULT: [5, 14],
};
const MEDIATED = new Set(['CONSULT', 'AGREE', 'REQUEST', 'CONCEDE', 'COOPERATE']);
const DEADLY = new Set(['ASSAULT', 'COERCE']);

/*
 * The extracted shape's ratios are those the symbolic extraction made over the project's corpora (corpora/sudan-drc-2024
 * and corpora/gold's two document sets, 60 documents; docs/operations.md, "The bench graph in the shape extraction makes"),
 * measured again at 31b2f9b by `npx tsx bench/extraction-shape.ts`, which prints them beside this shape's at 1M:
 *   REFERS_TO: 100 edges, 0.096 per claim, all to an event of the claim's own document; 5 of the 95 claims that refer
 *     refer to two events; by the event's type ASSAULT 50%, RETREAT 19%, AGREE 11%, THREATEN 11%, CONSULT 5%,
 *     MOBILIZE, PROTEST, REJECT, SANCTION 1% each (REFERRED_EVENT_TYPES); by claim type, REFERS_SHARE
 *   Documents: 28.1 claims and events each; MENTIONED_IN 81.7 per document (up to 498)
 *   PRECEDES: 0.99 per event (a document's dated events in date order)
 *   speakers: 0.85 claims per actor, 2.1 per actor that speaks (40% of the actors); 26.7% of claims have none
 *   TARGETS: 2.6 per claim; 37.5% of claims have none, 33.6% two or more
 *   Locations: 473, 7.9 per document; OCCURRED_AT 0.107 per event
 *   parallel edges (the same from, type and to): 6, all PARTICIPATES_IN of one actor in two roles
 * Not matched, as the shape is drawn: the actors that speak (the generator keeps its actor count, so 90% speak, 2.5
 * claims each), REFERS_TO per claim (0.186: the shares by claim type over the generator's even mix of types), MENTIONED_IN
 * per document (62: fewer places and speakers per document), the Locations (capped, locationOf) and the parallel edges
 * (none: a bench graph with none is the simpler one to count over).
 */
/** Per claim type, the share of claims that refer (REFERS_TO) to an event of their own document. */
const REFERS_SHARE: Record<Exclude<ClaimType, AddedLater>, number> = {
  Concession: 0.8, Justification: 0.47, Threat: 0.36, Position: 0.19, Accusation: 0.075, Commitment: 0.043, Denial: 0.037, Demand: 0.025,
  RedLine: 0, Offer: 0, Grievance: 0,
};
/**
 * The event types extraction's REFERS_TO edges reach, by their count in 100. A reference is drawn to one of these types,
 * not to any event of the document evenly: galtung's justified acts read the edges into ASSAULT and COERCE events.
 */
const REFERRED_EVENT_TYPES: [string, number][] = [
  ['ASSAULT', 50], ['RETREAT', 19], ['AGREE', 11], ['THREATEN', 11], ['CONSULT', 5], ['MOBILIZE', 1], ['PROTEST', 1], ['REJECT', 1], ['SANCTION', 1],
];
/**
 * The most types drawn for a reference that its document lacked, kept to be paid back by later references. A reference
 * that finds none of them in its document is not made and its type stays owed, so only those grow the list: 36 of 814
 * references at 100k, 155 of 8,482 at 1M, where the list reaches the bound. At the bound a reference draws no type of its
 * own and only pays one back (or is not made), which bounds how far the edges' mix can stray from the measured one.
 */
const OWED_LIMIT = 64;
/** Claims that target 2 actors or more (34% of the extracted ones), by how many more than the first they target. */
const MORE_TARGETS: [number, number][] = [[1, 98], [2, 39], [3, 15], [4, 14], [5, 26], [6, 15], [7, 27], [8, 15], [9, 12], [10, 10], [11, 19], [12, 20], [13, 9], [14, 17], [15, 5], [16, 6], [17, 4]];
/** Claims and events per document (1,688 over 60 documents). */
const ITEMS_PER_DOCUMENT = 28;
/** Every third Location a country, which fearon's stake words leave out. */
const LOCATION_TYPES_DRAWN = ['city', 'region', 'country'] as const;
/** An event of the open document: PRECEDES orders them by date, REFERS_TO draws them by type. */
interface DocumentEvent { id: string; date: string; type: string }

export interface GenerateOptions {
  /**
   * Add what extraction makes and the default graph lacks (REFERS_TO from claims to their document's events, claims
   * with many targets or no speaker, Documents, MENTIONED_IN and the claims' and events' provenance in them, PRECEDES
   * between a document's dated events, Locations and OCCURRED_AT, CONCERNS, MEMBER_OF), drawn from a second sequence
   * so that the default graph stays the same graph.
   */
  extracted?: boolean;
}

export interface Generated {
  write: GraphWrite;
  facts: number;
  nodes: number;
  edges: number;
  properties: number;
}

/** A generated graph's write as the records a store would hold, each recorded at `recorded`: what GraphIndex.fromRecords takes. */
export function generatedRecords(write: GraphWrite, recorded: string): { nodes: NodeRecord[]; edges: EdgeRecord[] } {
  return {
    nodes: write.nodes.map((node): NodeRecord => ({ id: node.id!, labels: node.labels, properties: node.properties ?? {}, confidence: node.confidence ?? 1, provenance: node.provenance ?? [], recorded_at: recorded })),
    edges: write.edges.map((edge): EdgeRecord => ({ id: edge.id!, type: edge.type, from: edge.from, to: edge.to, properties: edge.properties ?? {}, confidence: edge.confidence ?? 1, provenance: [], recorded_at: recorded })),
  };
}

/** generatedRecords in a GraphIndex, the record lists let go. */
export function generatedIndex(write: GraphWrite, recorded: string): GraphIndex {
  const { nodes, edges } = generatedRecords(write, recorded);
  return GraphIndex.fromRecords(nodes, edges);
}

/**
 * Actors (label, role, actor_type), Issues, Interests held by actors, alliances and
 * oppositions, then claims of all 11 types (text, timestamp; ASSERTS, TARGETS, ABOUT,
 * CONTRADICTS) and events of the 16 PLOVER types (date, label, fatalities for some;
 * PARTICIPATES_IN as perpetrator, target and mediator) until the graph holds `target` facts;
 * with `options.extracted`, what extraction adds besides (GenerateOptions).
 */
export function generate(target: number, options: GenerateOptions = {}): Generated {
  const random = lcg(target);
  const extracted = options.extracted === true;
  const more = lcg(target ^ 0x5eed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const weighted = <T>(entries: [T, number][]): T => weightedBy(random, entries);
  const write: GraphWrite = { nodes: [], edges: [] };
  let properties = 0;
  // what the extracted shape adds draws its confidences from its own sequence too
  const node = (id: string, kind: string, props: Record<string, string | number>, draw = random) => {
    const record: NodeInput = { id, labels: [kind], properties: props, confidence: 0.6 + 0.4 * draw() };
    write.nodes.push(record);
    properties += Object.keys(props).length;
    return record;
  };
  let edgeCount = 0;
  const edge = (type: string, from: string, to: string, props: Record<string, string> = {}, draw = random) => {
    write.edges.push({ id: `e${edgeCount++}`, type, from, to, properties: props, confidence: 0.5 + 0.5 * draw() });
    properties += Object.keys(props).length;
  };
  const facts = () => write.nodes.length + write.edges.length + properties;

  const actorCount = Math.max(6, Math.round(target / 70));
  const actors: string[] = [];
  const labels: string[] = [];
  for (let i = 0; i < actorCount; i++) {
    const label = `${pick(NAME_A)} ${pick(NAME_B)} ${i}`;
    actors.push(`a${i}`);
    labels.push(label);
    node(`a${i}`, 'Actor', { label, role: weighted(ROLES), actor_type: pick(DRAWN_ACTOR_TYPES) });
  }
  const issueCount = Math.max(3, Math.round(target / 2_000));
  const issues: string[] = [];
  for (let i = 0; i < issueCount; i++) {
    issues.push(`i${i}`);
    node(`i${i}`, 'Issue', { label: `${ISSUES[i % ISSUES.length]}${i >= ISSUES.length ? ` (${i})` : ''}` });
  }
  for (let i = 0; i < Math.ceil(actorCount / 2); i++) {
    const type = pick(DRAWN_INTEREST_TYPES);
    node(`n${i}`, 'Interest', { label: `${type} of ${labels[i % actorCount]}`, interest_type: type });
    edge('HOLDS_INTEREST', actors[Math.floor(random() * actorCount)], `n${i}`);
    // extraction linked 6 of its 12 Interests to an Issue (CONCERNS)
    if (extracted && more() < 0.5) edge('CONCERNS', `n${i}`, issues[Math.floor(more() * issueCount)], {}, more);
  }
  // a pair drawn again with the same kind would make a parallel edge, which the extracted shape leaves out; the default
  // graph keeps it, to stay the graph earlier figures were measured on
  const paired = new Set<string>();
  for (let i = 0; i < Math.ceil(actorCount * 0.6); i++) {
    const a = pick(actors);
    const b = pick(actors);
    if (a === b) continue;
    const type = random() < 0.5 ? 'ALLIED_WITH' : 'OPPOSES';
    if (extracted) {
      const pair = `${a} ${type} ${b}`;
      if (paired.has(pair)) continue;
      paired.add(pair);
    }
    edge(type, a, b);
  }

  if (extracted) {
    // extraction made 4 MEMBER_OF edges over 898 actors: about 1 per 200. (Unlike the alliances above, an actor may be
    // drawn as a member of itself; none is at 1M, and a guard would change the graph other benches compare against.)
    for (let i = 0; i < Math.ceil(actorCount / 200); i++) edge('MEMBER_OF', actors[Math.floor(more() * actorCount)], actors[Math.floor(more() * actorCount)], {}, more);
  }
  const locations: string[] = [];
  let documents = 0;
  /**
   * Types drawn for a reference that its document lacked, oldest first. A later reference takes the oldest of them its
   * document has before the type drawn for it, so the edges reach each type at extraction's share although a document
   * of 28 claims and events holds only some of the types (at 1M a RETREAT is in 30% of them, an AGREE in 40%, an ASSAULT in 82%).
   */
  const owed: string[] = [];
  /** An event of the document's `documentEvents` for a claim to refer to, other than `besides`; none if no owed type is there. */
  const referredEvent = (documentEvents: DocumentEvent[], besides?: string) => {
    if (owed.length < OWED_LIMIT) owed.push(weightedBy(more, REFERRED_EVENT_TYPES));
    for (let i = 0; i < owed.length; i++) {
      const ofType = documentEvents.filter((event) => event.type === owed[i] && event.id !== besides);
      if (ofType.length === 0) continue;
      owed.splice(i, 1);
      return ofType[Math.floor(more() * ofType.length)].id;
    }
    return undefined;
  };

  /**
   * The open document's claims and events, the actors it names (what it mentions), and its claims that refer to an
   * event (to two if `twice`): they are given their events when it closes, so that they may refer to any of its events.
   */
  let inDocument: { read: Provenance; items: number; events: DocumentEvent[]; mentioned: Set<string>; referring: { claim: string; twice: boolean }[] } | undefined;
  const mention = (id: string) => {
    if (!inDocument || inDocument.mentioned.has(id)) return;
    inDocument.mentioned.add(id);
    edge('MENTIONED_IN', id, `d${documents - 1}`, {}, more);
  };
  const closeDocument = () => {
    if (!inDocument) return;
    // extraction chains a document's dated events in date order
    const dated = inDocument.events.sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
    for (let i = 1; i < dated.length; i++) edge('PRECEDES', dated[i - 1].id, dated[i].id, {}, more);
    for (const { claim, twice } of inDocument.referring) {
      const first = referredEvent(dated);
      if (first) edge('REFERS_TO', claim, first, {}, more);
      const second = first && twice ? referredEvent(dated, first) : undefined;
      if (second) edge('REFERS_TO', claim, second, {}, more);
    }
    inDocument = undefined;
  };
  /** The document a new claim or event is read from: the open one, or a new one once that holds ITEMS_PER_DOCUMENT. */
  const documentOf = (when: string) => {
    if (inDocument && inDocument.items < ITEMS_PER_DOCUMENT) return inDocument;
    closeDocument();
    const id = `d${documents++}`;
    const source = `bench/document-${id}.txt`;
    const published = `${when}T00:00:00Z`;
    node(id, 'Document', { source, sha256: (Math.floor(more() * 2 ** 32)).toString(16).padStart(8, '0').repeat(8), title: `Report ${id}`, published_at: published }, more);
    inDocument = { read: { source, timestamp: published, document_id: id }, items: 0, events: [], mentioned: new Set(), referring: [] };
    return inDocument;
  };
  /**
   * The Location an event occurred at. Capped at one per 2,000 facts (at least one per PLACES name), as the issues are,
   * so that the places stay a bounded set the frameworks read by name; extraction's 473 over 60 documents give no cap
   * that scales. The even draw between a new place and one already made is a choice, not a measured ratio: it makes both
   * kinds until the cap (reached at 1M: 500), then every place is one already made. A place drawn again is any Location,
   * so it need not be the place the event's label names.
   */
  const locationOf = (place: string) => {
    if (locations.length < Math.max(PLACES.length, Math.round(target / 2_000)) && more() < 0.5) {
      const id = `l${locations.length}`;
      node(id, 'Location', { label: locations.length < PLACES.length ? place : `${place} (${locations.length})`, location_type: LOCATION_TYPES_DRAWN[locations.length % 3] }, more);
      locations.push(id);
      return id;
    }
    return locations.length ? locations[Math.floor(more() * locations.length)] : undefined;
  };

  const claims: string[] = [];
  let events = 0;
  while (facts() < target) {
    const day = Math.floor(random() * DAYS);
    const when = new Date(START + day * 86_400_000).toISOString().slice(0, 10);
    const speaker = pick(actors);
    let other = pick(actors);
    if (other === speaker) other = actors[(actors.indexOf(speaker) + 1) % actorCount];
    if (random() < 0.55) {
      const type = pick(DRAWN_CLAIM_TYPES);
      const id = `c${claims.length}`;
      const issue = pick(issues);
      const text = pick(CLAIM_TEXTS[type])
        .replace('{a}', labels[Number(other.slice(1))])
        .replace('{p}', pick(PLACES))
        .replace('{i}', ISSUES[Number(issue.slice(1)) % ISSUES.length]);
      const claim = node(id, 'Claim', { type, text, timestamp: `${when}T${String(6 + Math.floor(random() * 14)).padStart(2, '0')}:00:00Z` });
      // extraction leaves 27% of claims without a speaker
      const spoken = !extracted || more() >= 0.27;
      if (spoken) edge('ASSERTS', speaker, id);
      const targeted = random() < 0.6;
      if (targeted) edge('TARGETS', id, other);
      if (random() < 0.5) edge('ABOUT', id, issue);
      if (claims.length > 0 && random() < 0.04) edge('CONTRADICTS', id, pick(claims));
      claims.push(id);
      if (extracted) {
        const document = documentOf(when);
        document.items++;
        claim.provenance = [document.read];
        mention(id);
        if (spoken) mention(speaker);
        if (targeted) {
          mention(other);
          // 34% of extracted claims target two actors or more: 57% of the 60% that target one here
          if (more() < 0.57) {
            const targets = new Set([other]);
            for (let n = weightedBy(more, MORE_TARGETS); n > 0; n--) targets.add(actors[Math.floor(more() * actorCount)]);
            for (const target of targets) if (target !== other) edge('TARGETS', id, target, {}, more);
          }
        }
        // 5 of the 95 extracted claims that refer to an event refer to two
        if (more() < REFERS_SHARE[type]) document.referring.push({ claim: id, twice: more() < 0.05 });
      }
    } else {
      const progress = day / DAYS;
      const type = weighted(Object.entries(EVENT_WEIGHTS).map(([t, [from, to]]) => [t, from + (to - from) * progress] as [string, number]));
      const id = `v${events++}`;
      const props: Record<string, string | number> = { event_type: type, date: when, label: `${type.toLowerCase()} in ${pick(PLACES)}` };
      if (DEADLY.has(type) && random() < 0.7) props.fatalities = Math.floor(random() * 40 * (0.5 + progress));
      const event = node(id, 'Event', props);
      edge('PARTICIPATES_IN', speaker, id, { role: 'perpetrator' });
      const targetDrawn = random() < 0.85;
      if (targetDrawn) edge('PARTICIPATES_IN', other, id, { role: 'target' });
      // a third actor drawn as the perpetrator, or as the target where one was drawn, would make a parallel edge, which
      // the extracted shape leaves out; the default graph keeps it, to stay the graph earlier figures were measured on
      const third = (role: string) => {
        const actor = pick(actors);
        if (!extracted || (actor !== speaker && !(targetDrawn && actor === other))) edge('PARTICIPATES_IN', actor, id, { role });
      };
      if (MEDIATED.has(type) && random() < 0.5) third('mediator');
      else if (random() < 0.1) third('participant');
      if (extracted) {
        const document = documentOf(when);
        document.items++;
        document.events.push({ id, date: when, type });
        event.provenance = [document.read];
        mention(id);
        mention(speaker);
        // extraction placed 69 of its 642 events (OCCURRED_AT)
        if (more() < 0.11) {
          const location = locationOf(String(props.label).replace(/^\w+ in /, ''));
          if (location) {
            edge('OCCURRED_AT', id, location, {}, more);
            mention(location);
          }
        }
      }
    }
  }
  closeDocument();
  return { write, facts: facts(), nodes: write.nodes.length, edges: write.edges.length, properties };
}

/** The interchange records (transfer.ts: what import reads) of a generated write. */
export function interchange(write: GraphWrite) {
  const nodes = write.nodes.map(({ id, labels: [kind, ...labels], properties, confidence }) => ({ kind, id, ...(labels.length ? { labels } : {}), ...properties, confidence }));
  const edges = write.edges.map(({ id, type, from, to, properties, confidence }) => ({ type, ...(id ? { id } : {}), from, to, ...properties, confidence }));
  return { nodes, edges };
}
