/** The rule set's name and version, apart from the rules: the server names it without loading them (they load in the rule workers). */
export const SYMBOLIC_EXTRACTOR_VERSION = 'parley-rules/1.0.0';
