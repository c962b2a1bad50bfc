/** The predicates of the framework contract (frameworks/README.md, "The contract"): every framework defines them, so WHERE cannot call them by name. */
export const CONTRACT_PREDICATES = ['indicator/3', 'present/2', 'missing/1', 'finding/5', 'rank/3', 'keywords/2', 'strength/3'] as const;

/** Those a framework must define for the loader to accept it. */
export const REQUIRED_PREDICATES = ['indicator/3', 'finding/5'];
