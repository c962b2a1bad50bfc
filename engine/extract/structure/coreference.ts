import { ACTOR_TYPES, type ActorType, type LocationType } from '../../ontology/index.ts';
import { INVISIBLE_MARKS, deriveNodeId, normaliseForIdentity } from '../../store/ids.ts';
import { isGenericMention } from '../symbolic/actors.ts';
import { matchingText } from '../symbolic/normalise.ts';
import type { FindingSource, TextSpan } from '../types.ts';
import { inferOrganisationType, type EntityMention } from './entity-mention.ts';
import { sentenceAround } from './sentences.ts';

/**
 * Stage 2 of structuring: which mentions name the same thing. Within a document:
 * gazetteer canonical names, acronyms against the full names they abbreviate
 * ("RSF" ↔ "Rapid Support Forces"), surnames against full personal names
 * ("al-Burhan" ↔ "Abdel Fattah al-Burhan"), and definite descriptions ("the army")
 * against the nearest named actor of that type. Across documents: a directory of the
 * graph's existing actors (labels and aliases) so that a later document's "JEM"
 * lands on the node an earlier document created as "Justice and Equality Movement",
 * and is found at all when no extractor of the later document knows the name.
 * Node ids derive from the resolved label, so the same canonical label is the same node.
 */

export interface ResolvedEntity {
  id: string;
  kind: 'Actor' | 'Location';
  label: string;
  actor_type?: ActorType;
  location_type?: LocationType;
  country_code?: string;
  /** Other names this document (or the gazetteer) uses for it, sorted. */
  aliases: string[];
  /** Every mention in this document, in text order. */
  mentions: EntityMention[];
  confidence: number;
}

/** The graph's actors as earlier documents left them: a surface form → the label of the node it names. */
export interface ActorDirectory {
  /**
   * By label or alias; an organisation also by an acronym of its name or the name an acronym spells.
   * A label beats an alias; a name two actors claim alike (both as label, both as alias, or as
   * the initials of both) is neither's: undefined, whatever order the actors came in.
   */
  lookup(surface: string, person?: boolean): string | undefined;
  /** Where the text names a known actor by its label or an alias (case-sensitive, whole words); a name two actors claim is passed over. */
  occurrences(text: string): EntityMention[];
}

export interface KnownActor {
  label: string;
  aliases?: readonly string[];
  actor_type?: string;
}

/** Known names shorter than this are only matched when written in capitals (acronyms such as "UN"). */
const MIN_KNOWN_NAME_CHARS = 4;
/** Longest known name matched in a text, in words. */
const MAX_KNOWN_NAME_WORDS = 8;
const WORD = /[\p{L}\p{N}][\p{L}\p{N}'’.-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu;

function isMatchableName(name: string): boolean {
  if (!/^[\p{Lu}\p{N}]/u.test(name)) return false;
  return name.length >= MIN_KNOWN_NAME_CHARS || /^[\p{Lu}\p{N}]+$/u.test(name);
}

/** An actor directory that takes more actors: a batch adds each document's new actors instead of building it again from the whole graph. */
export interface GrowingActorDirectory extends ActorDirectory {
  /**
   * Adds an actor, or more names of one it holds (the same label and type). The directory then
   * answers as one built from every actor added, in any order (a name two of them claim is neither's).
   */
  add(actor: KnownActor): void;
}

/** Records that `label` claims the name `key`: a name two labels claim is nobody's (null), so the order actors come in decides nothing. */
function claim(names: Map<string, string | null>, key: string, label: string): void {
  names.set(key, names.has(key) && names.get(key) !== label ? null : label);
}

export function actorDirectory(actors: Iterable<KnownActor>): GrowingActorDirectory {
  /** Names by key (normaliseForIdentity) → the label they name; null: two actors claim it. */
  const byName = new Map<string, string | null>();
  const byAlias = new Map<string, string | null>();
  /** Acronyms (labels and aliases) and the initials of long names → the labels they name; two labels make an acronym nobody's. */
  const byInitials = new Map<string, string | null>();
  /** Each label's actor type ('unknown' when two actors of one label differ). */
  const types = new Map<string, ActorType>();
  /** First word of a known name → the names starting with it, as word lists with their key, longest first (of one length, in the order added). */
  const byFirstWord = new Map<string, { words: string[]; key: string }[]>();
  /** The names in byFirstWord, by their words: each listed once, however many actors give it (whom it names is byName's and byAlias's answer). */
  const listed = new Set<string>();
  /** Whom the name with this key names: a label beats an alias; undefined when unknown or two actors claim it. */
  const named = (key: string) => (byName.has(key) ? byName.get(key) : byAlias.get(key)) ?? undefined;
  const add = (actor: KnownActor) => {
    claim(byName, normaliseForIdentity(actor.label), actor.label);
    const actor_type = ((ACTOR_TYPES as readonly string[]).includes(actor.actor_type ?? '') ? actor.actor_type : 'unknown') as ActorType;
    types.set(actor.label, types.has(actor.label) && types.get(actor.label) !== actor_type ? 'unknown' : actor_type);
    for (const name of [actor.label, ...(actor.aliases ?? [])]) {
      if (actor_type !== 'individual') claim(byInitials, isAcronym(name) ? compact(name) : initialsOf(name), actor.label);
      if (name !== actor.label) claim(byAlias, normaliseForIdentity(name), actor.label);
      if (!isMatchableName(name)) continue;
      const words = [...matchingText(name).text.matchAll(WORD)].map((match) => match[0]);
      if (words.length === 0 || words.length > MAX_KNOWN_NAME_WORDS) continue;
      const phrase = words.join(' ');
      if (listed.has(phrase)) continue;
      listed.add(phrase);
      const list = byFirstWord.get(words[0]) ?? [];
      const after = list.findIndex((known) => known.words.length < words.length);
      list.splice(after === -1 ? list.length : after, 0, { words, key: normaliseForIdentity(name) });
      byFirstWord.set(words[0], list);
    }
  };
  for (const actor of actors) add(actor);
  return {
    add,
    lookup(surface, person = false) {
      const key = normaliseForIdentity(surface);
      // a name two actors claim is passed to no acronym either
      if (byName.has(key) || byAlias.has(key) || person) return named(key);
      // "KPA" for the "Kivara Patriotic Army" an earlier document named, and the other way round.
      const words = surface.trim().split(/\s+/);
      const initials = isAcronym(surface) ? compact(surface) : words.length >= 2 && /^\p{Lu}/u.test(surface) ? initialsOf(surface) : undefined;
      return initials && initials.length >= 2 ? (byInitials.get(initials) ?? undefined) : undefined;
    },
    occurrences(original) {
      // Matched as the symbolic layer reads text: "Kata’ib" and "Kata\u200b'ib" are "Kata'ib".
      const matching = matchingText(original);
      const { text } = matching;
      const words = [...text.matchAll(WORD)].map((match) => ({ text: match[0], start: match.index, end: match.index + match[0].length }));
      const found: EntityMention[] = [];
      for (let i = 0; i < words.length; i++) {
        const candidates = byFirstWord.get(words[i].text);
        if (!candidates) continue;
        const match = candidates.find(({ words: name }) =>
          name.every((word, k) => words[i + k]?.text === word && (k === 0 || /^\s+$/.test(text.slice(words[i + k - 1].end, words[i + k].start)))),
        );
        if (!match) continue;
        const label = named(match.key);
        if (label === undefined) {
          // two actors claim the name: it names neither, its words are passed over
          i += match.words.length - 1;
          continue;
        }
        const { start, end } = matching.toOriginal(words[i].start, words[i + match.words.length - 1].end);
        found.push({
          kind: 'Actor', start, end, text: original.slice(start, end), actor_type: types.get(label),
          canonical: label, confidence: KNOWN_NAME_CONFIDENCE, source: 'pattern',
        });
        i += match.words.length - 1;
      }
      return found;
    },
  };
}

/** Confidence of a mention found only because an earlier document named the actor so. */
const KNOWN_NAME_CONFIDENCE = 0.6;

const SOURCE_PRIORITY: Record<FindingSource, number> = { gazetteer: 0, pattern: 1, title: 2, ner: 3 };
/** Added to a mention's source priority when its type is an acronym's fallback: any stated type outranks it. */
const GUESSED_TYPE_RANK = Object.keys(SOURCE_PRIORITY).length;

/** Titles and ranks that precede a personal name and are not part of it. */
const LEADING_TITLES =
  /^(?:(?:lieutenant|lt\.?|major|maj\.?|brigadier|general|gen\.?|colonel|col\.?|captain|capt\.?|commander|field marshal|marshal|president|vice[- ]president|prime minister|foreign minister|defen[cs]e minister|minister|secretary[- ]general|secretary|ambassador|special envoy|envoy|sheikh|shaykh|dr\.?|mr\.?|mrs\.?|ms\.?|king|queen|prince|emir|chief|spokes(?:man|woman|person))\s+)+/i;

/** Definite descriptions that refer back to a named actor of one of these types. */
const DEFINITE_DESCRIPTIONS: readonly [RegExp, readonly ActorType[]][] = [
  [/^(the )?(army|military|armed forces|troops|soldiers|forces|security forces|government forces|government troops|state forces|regime forces|junta forces)$/i, ['armed_forces']],
  [/^(the )?(militias?|paramilitar(y|ies)|paramilitary forces?|rebels|rebel forces|rebel group|insurgents|jihadists|militants|fighters|gangs|armed gangs|group|armed group|movement)$/i, ['armed_group']],
  // A junta or a regime is a government, never the state it rules ("Myanmar" stays the country).
  [/^(the )?((military|de facto) )?(regime|junta|military government|military authorities)$/i, ['government']],
  [/^(the )?((federal|central|national|transitional|interim|de facto) )?(government|authorities|administration)$/i, ['government', 'state']],
  [/^(the )?(mediators|peacekeepers)$/i, ['international_org']],
  // graphs written before police had a type of their own hold them as armed forces
  [/^(the )?(riot )?(police|police force)$/i, ['police', 'armed_forces']],
  [/^(the )?(court|tribunal)$/i, ['court']],
  [/^(the )?(company|firm)$/i, ['company']],
];

/** Words an acronym skips ("Sudan People's Liberation Movement" → SPLM). */
const ACRONYM_SKIPPED_WORDS = new Set(['of', 'the', 'and', 'for', 'in', 'de', 'du', 'des', 'la', 'le', 'et', "people's"]);

/** Descriptions of a government as one party: the actor they stand for is never another one named in their own sentence. */
const GOVERNMENT_DESCRIPTION = /\b(government|regime|junta|authorities|administration)$/i;
/** Those a document may name a government by alone, so that they make an actor of their own when nothing named stands for them. */
const RULING_DESCRIPTION = /\b(regime|junta|military government|military authorities)$/i;
/** Label of a government named only by a military description in a document that points to no country. */
const UNPLACED_JUNTA_LABEL = 'Military government';

function definiteDescriptionTypes(surface: string): readonly ActorType[] | undefined {
  const trimmed = surface.trim().replace(/\s+/g, ' ');
  return DEFINITE_DESCRIPTIONS.find(([pattern]) => pattern.test(trimmed))?.[1];
}

/** The name a mention contributes: composed (NFC), no invisible marks, no leading article, and no title for a person. */
export function nameOf(text: string, isPerson: boolean): string {
  let name = cleanName(text).replace(/^the\s+/i, '');
  if (isPerson) name = name.replace(LEADING_TITLES, '');
  return name || text.trim();
}

/** A name as a label shows it: composed, without marks no reader sees, on one line. */
function cleanName(text: string): string {
  return text.normalize('NFC').replace(INVISIBLE_MARKS, '').trim().replace(/\s+/g, ' ');
}

function compact(text: string): string {
  return text.replace(/[^\p{L}\p{N}]/gu, '').toUpperCase();
}

function isAcronym(name: string): boolean {
  return /^[A-Z][A-Za-z0-9&.-]{1,9}$/.test(name) && (name.match(/[A-Z]/g) ?? []).length >= 2 && !/[a-z]{2}/.test(name);
}

function initialsOf(label: string): string {
  return label
    .split(/[\s-]+/)
    .filter((word) => word && !ACRONYM_SKIPPED_WORDS.has(word.toLowerCase()))
    .map((word) => (/^\p{N}+$/u.test(word) ? word : word[0]))
    .join('')
    .toUpperCase();
}

/** Name tokens for surname comparison: "al-Burhan" and "Burhan" compare equal. */
function nameTokens(name: string): string[] {
  return normaliseForIdentity(name)
    .split(/\s+/)
    .map((token) => token.replace(/^(al|el|ad|ar|as|ash|at|az)-/, ''))
    .filter(Boolean);
}

function isSurnameOf(short: string, full: string): boolean {
  const shortTokens = nameTokens(short);
  const fullTokens = nameTokens(full);
  if (shortTokens.length === 0 || shortTokens.length >= fullTokens.length) return false;
  return shortTokens.every((token, i) => token === fullTokens[fullTokens.length - shortTokens.length + i]);
}

interface Cluster {
  kind: 'Actor' | 'Location';
  label: string;
  names: Map<string, string>; // normalised → first spelling seen
  mentions: EntityMention[];
  /** The best-sourced actor type among the mentions, a guessed one last; null = not computed since the last attach. */
  type: ActorType | undefined | null;
  /** Whether that type is only an acronym's fallback (ActorMention.type_guessed). */
  typeGuessed?: boolean;
}

/** A resolved span: which entity, by its node id. */
export interface EntityRef {
  id: string;
  kind: 'Actor' | 'Location';
}

function typeOf(cluster: Cluster): ActorType | undefined {
  if (cluster.type !== null) return cluster.type;
  let best: EntityMention | undefined;
  const rank = (mention: EntityMention) => SOURCE_PRIORITY[mention.source] + (mention.type_guessed ? GUESSED_TYPE_RANK : 0);
  for (const mention of cluster.mentions) {
    if (!mention.actor_type || mention.actor_type === 'unknown' || mention.generic) continue;
    if (!best || rank(mention) < rank(best)) best = mention;
  }
  // The mention that supplies the type says whether it is a guess, the fallback one too.
  const supplier = best ?? cluster.mentions.find((mention) => mention.actor_type);
  cluster.type = supplier?.actor_type;
  cluster.typeGuessed = supplier?.type_guessed ?? false;
  return cluster.type;
}

/** The country code the best-sourced mention gives a place. */
function countryCodeOf(cluster: Cluster): string | undefined {
  let best: EntityMention | undefined;
  for (const mention of cluster.mentions) {
    if (mention.country_code && (!best || SOURCE_PRIORITY[mention.source] < SOURCE_PRIORITY[best.source])) best = mention;
  }
  return best?.country_code;
}

/**
 * A node id from the cluster's label (and a place's country code). Stable once the
 * named mentions are placed: later mentions come from findings' spans, which carry
 * no country code.
 */
function clusterId(cluster: Cluster): string {
  if (cluster.kind === 'Actor') return deriveNodeId('Actor', { label: cluster.label });
  const country_code = countryCodeOf(cluster);
  return deriveNodeId('Location', { label: cluster.label, ...(country_code ? { country_code } : {}) });
}

/** First index in `items` (sorted by start) whose start is at least `position`. */
function lowerBound(items: readonly { mention: EntityMention }[], position: number): number {
  let low = 0;
  let high = items.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (items[middle].mention.start < position) low = middle + 1;
    else high = middle;
  }
  return low;
}

export class EntityResolver {
  private readonly clusters: Cluster[] = [];
  private readonly byName = new Map<string, Cluster>();
  /** Every placed mention by start offset: span lookups and nearest-antecedent searches are logarithmic. */
  private readonly byPosition: { mention: EntityMention; cluster: Cluster }[] = [];
  private longestMention = 0;
  /** Descriptions with no antecedent yet, kept for the country the symbolic layer gave them. */
  private readonly undescribed: EntityMention[] = [];
  /** Pronouns and nominal mentions that two actors fit: they stand for nobody. */
  private readonly unresolved: EntityMention[] = [];
  /** Where descriptions start that were given an actor although not exactly one of their type was named before them. */
  private readonly guessed = new Set<number>();

  constructor(
    private readonly text: string,
    mentions: readonly EntityMention[],
    private readonly directory?: ActorDirectory,
  ) {
    const named: EntityMention[] = [];
    const generic: EntityMention[] = [];
    const references: EntityMention[] = [];
    for (const mention of mentions) {
      if (mention.reference) (mention.antecedent ? references : this.unresolved).push(mention);
      else if (mention.kind === 'Actor' && !mention.canonical && definiteDescriptionTypes(mention.text)) generic.push(mention);
      else named.push(mention);
    }
    // Canonical names first, then longer names before the short forms that refer to them.
    const order = [...named].sort(
      (a, b) => Number(!a.canonical) - Number(!b.canonical) || b.text.length - a.text.length || a.start - b.start,
    );
    for (const mention of order) for (const part of this.conjuncts(mention)) this.place(part);
    for (const mention of generic) if (!this.describe(mention, false)) this.undescribed.push(mention);
    // In text order, so that a pronoun standing for an earlier pronoun finds it placed.
    for (const mention of references) {
      const target = this.headAt(mention.antecedent!, 'Actor')?.cluster ?? (mention.canonical ? this.byName.get(this.key('Actor', mention.canonical)) : undefined);
      if (target) this.attach(target, { ...mention, generic: true });
    }
  }

  /**
   * The actor a definite description stands for: its antecedent, else for a government
   * the document names only so, an actor of its own, named after the country the symbolic
   * layer placed it in ("Government of Myanmar"), or "Military government" for a junta in a
   * text that points to no country. A junta or a regime always gets it (the document names
   * that party so); "the government" or "the authorities" only when it speaks, since
   * documents mention governments in passing ("talks with the government").
   */
  private describe(mention: EntityMention, speaking: boolean): Cluster | undefined {
    const target = this.antecedent(mention, definiteDescriptionTypes(mention.text)!);
    if (target) {
      this.attach(target, { ...mention, generic: true });
      return target;
    }
    const surface = mention.text.trim();
    const ruling = RULING_DESCRIPTION.test(surface);
    if (!GOVERNMENT_DESCRIPTION.test(surface) || !(ruling || speaking)) return undefined;
    const label = mention.country ? `Government of ${mention.country}` : ruling ? UNPLACED_JUNTA_LABEL : undefined;
    if (!label) return undefined;
    return this.place({ ...mention, actor_type: 'government', canonical: label, generic: true });
  }

  private key(kind: string, name: string): string {
    return `${kind}:${normaliseForIdentity(name)}`;
  }

  private isPerson(mention: EntityMention): boolean {
    return mention.kind === 'Actor' && mention.actor_type === 'individual';
  }

  private place(mention: EntityMention): Cluster {
    const name = nameOf(mention.text, this.isPerson(mention));
    let cluster =
      (mention.canonical && this.byName.get(this.key(mention.kind, mention.canonical))) ||
      this.byName.get(this.key(mention.kind, name)) ||
      (mention.kind === 'Actor' && !mention.canonical ? this.shortFormOf(name, mention) : undefined);
    if (!cluster) {
      const known = mention.kind === 'Actor' ? this.directory?.lookup(mention.canonical ?? name, this.isPerson(mention)) : undefined;
      cluster = { kind: mention.kind, label: known ?? cleanName(mention.canonical ?? name), names: new Map(), mentions: [], type: null };
      this.clusters.push(cluster);
      this.register(cluster, cluster.label);
    }
    this.attach(cluster, mention);
    return cluster;
  }

  /**
   * "Sudanese Armed Forces and the Rapid Support Forces" found as one name: two
   * actors, when either side is a name this document already knows (so that "Justice
   * and Equality Movement" stays whole).
   */
  private conjuncts(mention: EntityMention): EntityMention[] {
    if (mention.kind !== 'Actor' || mention.canonical) return [mention];
    const match = /^(.+?)\s+and\s+(?:the\s+)?(.+)$/u.exec(mention.text);
    if (!match || !/^\p{Lu}/u.test(match[1]) || !/^\p{Lu}/u.test(match[2])) return [mention];
    const [, left, right] = match;
    const known = (name: string) => this.byName.has(this.key('Actor', nameOf(name, false)));
    if (!known(left) && !known(right)) return [mention];
    const rightStart = mention.end - right.length;
    return [
      { ...mention, end: mention.start + left.length, text: left, actor_type: inferOrganisationType(left) },
      { ...mention, start: rightStart, text: right, actor_type: inferOrganisationType(right) },
    ];
  }

  /** An existing cluster this acronym or surname abbreviates. */
  private shortFormOf(name: string, mention: EntityMention): Cluster | undefined {
    const actors = this.clusters.filter((cluster) => cluster.kind === 'Actor');
    if (isAcronym(name)) {
      const acronym = compact(name);
      const match = actors.find((cluster) => [...cluster.names.values()].some((known) => !isAcronym(known) && initialsOf(known) === acronym));
      if (match) return match;
    }
    if (mention.actor_type === 'individual' || mention.actor_type === 'unknown' || mention.actor_type === undefined) {
      const candidates = actors.filter((cluster) => typeOf(cluster) === 'individual' && isSurnameOf(name, cluster.label));
      return this.nearestBefore(candidates, mention.start) ?? candidates[0];
    }
    return undefined;
  }

  /** The candidate with the closest mention ending at or before `position`. */
  private nearestBefore(candidates: Cluster[], position: number): Cluster | undefined {
    if (candidates.length === 0) return undefined;
    const wanted = new Set(candidates);
    let best: Cluster | undefined;
    let bestEnd = -1;
    // Mentions starting before `position`, scanned backwards; a mention ends at most `longestMention` after its start.
    for (let i = lowerBound(this.byPosition, position) - 1; i >= 0; i--) {
      const { mention, cluster } = this.byPosition[i];
      if (mention.start + this.longestMention <= bestEnd) break;
      if (mention.end <= position && mention.end > bestEnd && wanted.has(cluster)) {
        best = cluster;
        bestEnd = mention.end;
      }
    }
    return best;
  }

  /**
   * The named actor a description refers back to. A government description never stands
   * for another party named in its own sentence ("China said the military government had
   * agreed"), nor, when it is placed in a country, for another country or its government;
   * the government of its own country is no other party ("The Congolese delegation said
   * the government ...").
   */
  private antecedent(at: EntityMention, types: readonly ActorType[]): Cluster | undefined {
    const government = GOVERNMENT_DESCRIPTION.test(at.text.trim());
    const sentence = government ? sentenceAround(this.text, at) : undefined;
    const own = at.country === undefined ? undefined : `Government of ${at.country}`;
    const namedIn = (cluster: Cluster, span: TextSpan) =>
      cluster.label !== own && cluster.mentions.some((mention) => !mention.generic && mention.start >= span.start && mention.end <= span.end);
    const ofAnotherCountry = (cluster: Cluster, type: ActorType) =>
      at.country !== undefined && ((type === 'state' && cluster.label !== at.country) || (/^Government of /.test(cluster.label) && cluster.label !== own));
    const candidates = this.clusters.filter((cluster) => {
      const type = typeOf(cluster);
      if (cluster.kind !== 'Actor' || type === undefined || !types.includes(type)) return false;
      return !(government && (namedIn(cluster, sentence!) || ofAnotherCountry(cluster, type)));
    });
    if (candidates.length === 0) return undefined;
    const namedBefore = candidates.filter((cluster) => cluster.mentions.some((mention) => !mention.generic && mention.end <= at.start));
    if (namedBefore.length !== 1) this.guessed.add(at.start);
    const before = this.nearestBefore(candidates, at.start);
    if (before) return before;
    // Cataphora ("the army ... the Sudanese Armed Forces"): the first named one after it.
    const wanted = new Set(candidates);
    return this.byPosition.find((entry) => entry.mention.start >= at.start && wanted.has(entry.cluster))?.cluster ?? candidates[0];
  }

  private register(cluster: Cluster, name: string): void {
    const normalised = normaliseForIdentity(name);
    if (!normalised) return;
    if (!cluster.names.has(normalised)) cluster.names.set(normalised, name);
    const key = this.key(cluster.kind, name);
    if (!this.byName.has(key)) this.byName.set(key, cluster);
  }

  private attach(cluster: Cluster, mention: EntityMention): void {
    cluster.mentions.push(mention);
    cluster.type = null;
    this.byPosition.splice(lowerBound(this.byPosition, mention.start), 0, { mention, cluster });
    this.longestMention = Math.max(this.longestMention, mention.end - mention.start);
    if (mention.generic) return;
    // A title standing for its holder ("the Foreign Secretary") names an office the next holder takes, not the person.
    if (mention.title !== mention.text) this.register(cluster, nameOf(mention.text, this.isPerson(mention)));
    if (mention.canonical) this.register(cluster, mention.canonical);
    for (const alias of mention.aliases ?? []) this.register(cluster, alias);
  }

  /**
   * The entity a finding's span refers to: the first mention inside it (the head of
   * "General X of the Y" is X), else a definite description's antecedent, else a name
   * already known; `create` makes a new entity from the span's own text. `speaking` says
   * the span is a claim's speaker, which gives a government description an actor of its own.
   */
  resolveSpan(span: TextSpan, kind: 'Actor' | 'Location', create: boolean, speaking = false): EntityRef | undefined {
    const head = this.headAt(span, kind);
    if (head) return this.refOf(head.cluster);
    if (this.unresolved.some((mention) => mention.start < span.end && span.start < mention.end)) return undefined;
    const surface = this.text.slice(span.start, span.end);
    if (!surface.trim()) return undefined;
    const mention: EntityMention = {
      kind, start: span.start, end: span.end, text: surface, confidence: 0.5, source: 'pattern',
      ...(kind === 'Actor' ? { actor_type: LEADING_TITLES.test(surface) ? 'individual' : 'unknown' } : { location_type: 'other' }),
    } as EntityMention;
    if (kind === 'Actor' && definiteDescriptionTypes(surface)) {
      const found = this.undescribed.find((known) => known.start === span.start && known.end === span.end);
      const target = this.describe(found ?? mention, speaking);
      return target ? this.refOf(target) : undefined;
    }
    const name = nameOf(surface, mention.actor_type === 'individual');
    const known = this.byName.get(this.key(kind, name)) ?? (kind === 'Actor' ? this.shortFormOf(name, mention) : undefined);
    if (known) {
      this.attach(known, mention);
      return this.refOf(known);
    }
    if (!create) return undefined;
    return this.refOf(this.place(mention));
  }

  /**
   * Whether the actor the span resolves to is a guess: a description ("the junta", "the government") that
   * two named actors of its type fit, or none before it (then the nearest, the next or any one is taken).
   */
  isGuess(span: TextSpan): boolean {
    return this.guessed.has(this.headAt(span, 'Actor')?.mention.start ?? span.start);
  }

  /** The first placed mention of `kind` inside a span (the longest of those starting there). */
  private headAt(span: TextSpan, kind: 'Actor' | 'Location'): { mention: EntityMention; cluster: Cluster } | undefined {
    let head: { mention: EntityMention; cluster: Cluster } | undefined;
    for (let i = lowerBound(this.byPosition, span.start - this.longestMention); i < this.byPosition.length; i++) {
      const entry = this.byPosition[i];
      if (entry.mention.start >= span.end) break;
      if (entry.cluster.kind !== kind || entry.mention.end <= span.start) continue;
      if (!head || entry.mention.start < head.mention.start || (entry.mention.start === head.mention.start && entry.mention.end > head.mention.end)) head = entry;
    }
    return head;
  }

  private refOf(cluster: Cluster): EntityRef {
    return { id: clusterId(cluster), kind: cluster.kind };
  }

  /** The type of the actor entity `id` ('unknown' when none is known; undefined when no actor has that id): without building every entity. */
  actorTypeOf(id: string): ActorType | undefined {
    return this.actorTyping(id)?.type;
  }

  /**
   * The type of actor entity `id` as actorTypeOf gives it, and whether it is only an acronym's fallback ("AFRICOM" as an
   * armed group), which no party test relies on: one look-up for both.
   */
  actorTyping(id: string): { type: ActorType; guessed: boolean } | undefined {
    const cluster = this.clusters.find((candidate) => candidate.kind === 'Actor' && clusterId(candidate) === id);
    if (!cluster) return undefined;
    const type = typeOf(cluster);
    return { type: type ?? 'unknown', guessed: cluster.typeGuessed === true };
  }

  /**
   * Whether the document names entity `id`: a mention of it that is no reference and no description
   * ("regime forces", "the government" with no name before it). Asked of one entity without building every one.
   */
  isNamed(id: string): boolean {
    return this.clusters.find((cluster) => clusterId(cluster) === id)?.mentions.some((mention) => !mention.reference && !mention.generic && !isGenericMention(mention.text)) ?? false;
  }

  /** The resolved entities, in order of first mention. */
  entities(): ResolvedEntity[] {
    const entities = this.clusters.map((cluster): ResolvedEntity => {
      const mentions = [...cluster.mentions].sort((a, b) => a.start - b.start);
      const labelKey = normaliseForIdentity(cluster.label);
      const aliases = [...cluster.names.entries()]
        .filter(([normalised]) => normalised !== labelKey)
        .map(([, spelling]) => spelling)
        .sort();
      const confidence = Math.max(...mentions.map((mention) => mention.confidence));
      const base = { id: clusterId(cluster), kind: cluster.kind, label: cluster.label, aliases, mentions, confidence };
      if (cluster.kind === 'Actor') return { ...base, actor_type: typeOf(cluster) ?? 'unknown' };
      const country_code = countryCodeOf(cluster);
      const typed = mentions.filter((mention) => mention.location_type && mention.location_type !== 'other');
      typed.sort((a, b) => SOURCE_PRIORITY[a.source] - SOURCE_PRIORITY[b.source]);
      return { ...base, location_type: typed[0]?.location_type ?? 'other', ...(country_code ? { country_code } : {}) };
    });
    return entities.sort((a, b) => a.mentions[0].start - b.mentions[0].start);
  }
}
