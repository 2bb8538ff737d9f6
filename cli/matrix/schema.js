// The top-level keys of matrix.yaml; run options are described in cli/options.js. Documented in docs/matrix.md.
export const TOP_LEVEL = ['runtimes', 'flagSets', 'suites', 'commands', 'run'];
