/**
 * The predicates of the framework contract (frameworks/README.md, "The contract"), and added_answer/4, by which a module
 * grows a set it keeps when a write adds records ("Sets that grow with a write"): every framework may define them, so
 * WHERE cannot call them by name.
 */
export const CONTRACT_PREDICATES = ['indicator/3', 'present/2', 'missing/1', 'finding/5', 'rank/3', 'ranks/1', 'keywords/2', 'strength/3', 'added_answer/4'] as const;

/** Those a framework must define for the loader to accept it. */
export const REQUIRED_PREDICATES = ['indicator/3', 'finding/5'];
