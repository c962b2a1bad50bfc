import type {
  ActorType,
  ClaimType,
  EventType,
  LocationType,
  ParticipationRole,
} from '../ontology/index.ts';

/**
 * Typed boundaries of the extraction stages: extract (neural + symbolic findings,
 * character offsets into the document) → structure (resolved nodes and edges with
 * provenance) → store. Every offset here indexes the whole document text:
 * `text.slice(start, end) === mention.text`.
 */

export interface TextSpan {
  start: number;
  end: number;
}

/** One entity found by the transformer model; `label` is the id2label entry without its B-/I- prefix. */
export interface NeuralEntity extends TextSpan {
  label: string;
  text: string;
  score: number;
}

/** The neural layer as the pipeline sees it: a worker pool, or nothing when no model is configured. */
export interface NerBackend {
  /** Model name and version as reported in every extraction result. */
  readonly model: string;
  /** Entities of each document, offsets into that document's text. */
  recognise(texts: readonly string[]): Promise<NeuralEntity[][]>;
  close(): Promise<void>;
}

export type FindingSource = 'gazetteer' | 'pattern' | 'ner' | 'title';

export interface ActorMention extends TextSpan {
  text: string;
  actor_type: ActorType;
  /** Canonical label when the gazetteer or a resolution step knows it ("Rapid Support Forces" for "RSF"). */
  canonical?: string;
  aliases?: string[];
  /**
   * A person's title or rank ("General", "President") when stated; the mention's own text
   * when the title alone stands for its holder ("the Foreign Secretary", "the secretary").
   */
  title?: string;
  /**
   * For a government named only by a description ("the junta", "the military government"):
   * the country the document's places lie in, which names that government when no named
   * actor stands for it ("Government of Myanmar").
   */
  country?: string;
  /**
   * A pronoun ("he", "its", "they") or a nominal mention ("the ministry", "the group", "the
   * Coalition") standing for an actor named before it (./symbolic/references.ts). Its
   * `antecedent` is that actor's mention and its `canonical` that actor's name; with no
   * antecedent (two candidates fit) it stands for nobody.
   */
  reference?: 'pronoun' | 'nominal';
  antecedent?: TextSpan;
  /**
   * The `actor_type` is only the fallback for an acronym nothing types ("BINUH", "AFRICOM" read as armed groups):
   * the node keeps it, but no nominal resolution ("the group") and no test of who is a party relies on it.
   */
  type_guessed?: boolean;
  confidence: number;
  source: FindingSource;
}

export interface LocationMention extends TextSpan {
  text: string;
  location_type: LocationType;
  canonical?: string;
  country_code?: string;
  confidence: number;
  source: FindingSource;
}

export interface DateMention extends TextSpan {
  text: string;
  /** ISO 8601 date (YYYY-MM-DD), or YYYY-MM / YYYY when that is all the text says. */
  iso: string;
}

export interface ClaimMention extends TextSpan {
  /** The claim's clause, exactly `document.slice(start, end)`. */
  text: string;
  type: ClaimType;
  /** The cue that typed the claim ("would never accept"). */
  cue: TextSpan;
  speaker?: TextSpan;
  targets: TextSpan[];
  confidence: number;
}

export interface EventMention extends TextSpan {
  text: string;
  event_type: EventType;
  trigger: TextSpan;
  participants: (TextSpan & { role: ParticipationRole })[];
  location?: TextSpan;
  date?: TextSpan;
  confidence: number;
  /** How many people took part, as the text counts them (Event.size). */
  size?: number;
}

export interface RelationMention extends TextSpan {
  type: 'MEMBER_OF' | 'ALLIED_WITH' | 'OPPOSES';
  from: TextSpan;
  to: TextSpan;
  confidence: number;
}

/** What the symbolic conflict layer finds in one document. */
export interface Findings {
  actors: ActorMention[];
  locations: LocationMention[];
  dates: DateMention[];
  claims: ClaimMention[];
  events: EventMention[];
  relations: RelationMention[];
}

export interface DocumentInput {
  text: string;
  /** Document reference (a path under the corpora root, or a name given by the client). */
  source: string;
  /** ISO 8601 date the document was written; relative dates ("yesterday") resolve against it. */
  document_date?: string;
}

/** Finds the symbolic layer's findings in one document, on the calling thread or in a worker. */
export type FindingsReader = (document: DocumentInput) => Findings | Promise<Findings>;
