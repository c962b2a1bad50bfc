/** The symbolic layer's name and version, apart from the layer: the server names it without loading the layer (it loads in the symbolic workers). */
export const SYMBOLIC_EXTRACTOR_VERSION = 'parley-rules/1.0.0';
