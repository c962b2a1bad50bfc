/** The structure stage: findings → resolved entities → nodes and edges with provenance. */
export { collectMentions } from './mentions.ts';
export { inferLocationType, inferOrganisationType, type EntityMention } from './entity-mention.ts';
export { EntityResolver, actorDirectory, nameOf, type ActorDirectory, type GrowingActorDirectory, type EntityRef, type KnownActor, type ResolvedEntity } from './coreference.ts';
export { findIssues, type IssueCue } from './issues.ts';
export {
  MAX_PROVENANCE_PER_NODE,
  addProvenance,
  filterByTier,
  structureDocument,
  type StructureInput,
  type StructuredDocument,
  type StructuredEdge,
  type StructuredNode,
} from './build.ts';
export { COMBINATION_POLICIES, combineMentions, DEFAULT_COMBINATION, nerFamily, type CombinationPolicy, type NerFamily } from './combine.ts';
