/**
 * A generated conflict graph of about `target` facts (facts = nodes + edges + properties, as
 * bench/query.ts counts them), deterministic, for bench/frameworks.ts and profiling scripts.
 */
import { CLAIM_TYPES, INTEREST_TYPES, ACTOR_TYPES, type ActorRole, type ClaimType, type EdgeRecord, type EventType, type NodeRecord } from '../engine/ontology/index.ts';
import { GraphIndex } from '../engine/store/graph-index.ts';
import type { GraphWrite } from '../engine/store/store.ts';

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

/** PLOVER types, weighted towards the violent ones as time goes on (an escalating conflict). */
const EVENT_WEIGHTS: Record<Exclude<EventType, AddedLater>, [number, number]> = {
  // [weight in the first month, weight in the last]
  AGREE: [4, 2], CONSULT: [8, 4], SUPPORT: [5, 4], CONCEDE: [2, 1], COOPERATE: [4, 2], AID: [4, 5], RETREAT: [2, 2], REQUEST: [5, 4],
  ACCUSE: [5, 7], REJECT: [3, 5], THREATEN: [3, 6], PROTEST: [6, 5], SANCTION: [2, 4], MOBILIZE: [3, 6], COERCE: [3, 6], ASSAULT: [5, 14],
};
const MEDIATED = new Set(['CONSULT', 'AGREE', 'REQUEST', 'CONCEDE', 'COOPERATE']);
const DEADLY = new Set(['ASSAULT', 'COERCE']);

export interface Generated {
  write: GraphWrite;
  facts: number;
  nodes: number;
  edges: number;
  properties: number;
}

/** A generated graph's write as the records a store would hold (no provenance), each recorded at `recorded`: what GraphIndex.fromRecords takes. */
export function generatedRecords(write: GraphWrite, recorded: string): { nodes: NodeRecord[]; edges: EdgeRecord[] } {
  return {
    nodes: write.nodes.map((node): NodeRecord => ({ id: node.id!, labels: node.labels, properties: node.properties ?? {}, confidence: node.confidence ?? 1, provenance: [], recorded_at: recorded })),
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
 * PARTICIPATES_IN as perpetrator, target and mediator) until the graph holds `target` facts.
 */
export function generate(target: number): Generated {
  const random = lcg(target);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)];
  const weighted = <T>(entries: [T, number][]): T => {
    let r = random() * entries.reduce((sum, [, w]) => sum + w, 0);
    for (const [value, w] of entries) if ((r -= w) < 0) return value;
    return entries[entries.length - 1][0];
  };
  const write: GraphWrite = { nodes: [], edges: [] };
  let properties = 0;
  const node = (id: string, kind: string, props: Record<string, string | number>) => {
    write.nodes.push({ id, labels: [kind], properties: props, confidence: 0.6 + 0.4 * random() });
    properties += Object.keys(props).length;
  };
  let edgeCount = 0;
  const edge = (type: string, from: string, to: string, props: Record<string, string> = {}) => {
    write.edges.push({ id: `e${edgeCount++}`, type, from, to, properties: props, confidence: 0.5 + 0.5 * random() });
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
  }
  for (let i = 0; i < Math.ceil(actorCount * 0.6); i++) {
    const a = pick(actors);
    const b = pick(actors);
    if (a !== b) edge(random() < 0.5 ? 'ALLIED_WITH' : 'OPPOSES', a, b);
  }

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
      node(id, 'Claim', { type, text, timestamp: `${when}T${String(6 + Math.floor(random() * 14)).padStart(2, '0')}:00:00Z` });
      edge('ASSERTS', speaker, id);
      if (random() < 0.6) edge('TARGETS', id, other);
      if (random() < 0.5) edge('ABOUT', id, issue);
      if (claims.length > 0 && random() < 0.04) edge('CONTRADICTS', id, pick(claims));
      claims.push(id);
    } else {
      const progress = day / DAYS;
      const type = weighted(Object.entries(EVENT_WEIGHTS).map(([t, [from, to]]) => [t, from + (to - from) * progress] as [string, number]));
      const id = `v${events++}`;
      const props: Record<string, string | number> = { event_type: type, date: when, label: `${type.toLowerCase()} in ${pick(PLACES)}` };
      if (DEADLY.has(type) && random() < 0.7) props.fatalities = Math.floor(random() * 40 * (0.5 + progress));
      node(id, 'Event', props);
      edge('PARTICIPATES_IN', speaker, id, { role: 'perpetrator' });
      if (random() < 0.85) edge('PARTICIPATES_IN', other, id, { role: 'target' });
      if (MEDIATED.has(type) && random() < 0.5) edge('PARTICIPATES_IN', pick(actors), id, { role: 'mediator' });
      else if (random() < 0.1) edge('PARTICIPATES_IN', pick(actors), id, { role: 'participant' });
    }
  }
  return { write, facts: facts(), nodes: write.nodes.length, edges: write.edges.length, properties };
}

/** The interchange records (transfer.ts: what import reads) of a generated write. */
export function interchange(write: GraphWrite) {
  const nodes = write.nodes.map(({ id, labels: [kind, ...labels], properties, confidence }) => ({ kind, id, ...(labels.length ? { labels } : {}), ...properties, confidence }));
  const edges = write.edges.map(({ id, type, from, to, properties, confidence }) => ({ type, ...(id ? { id } : {}), from, to, ...properties, confidence }));
  return { nodes, edges };
}
