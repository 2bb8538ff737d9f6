// Lint for both worlds of JavaScript (docs/architecture.md): the host side is modern ES modules;
// the runtime side (worker/, suites/) must parse on Node 4, so it is held to ES5 syntax in scripts,
// except files a suite declares for newer runtimes (`module:` with minNode).
import js from '@eslint/js';
import globals from 'globals';

export default [
  // faults/arrow-async.js is unparsable on Node 4 on purpose: a test checks the cell says so.
  // own-code/esm-syntax.js is an ES module where Node expects CommonJS on purpose: a test checks the sentence.
  { ignores: ['node_modules/', 'results/', 'test/fixtures/suites/faults/arrow-async.js', 'test/fixtures/own-code/esm-syntax.js'] },
  js.configs.recommended,
  {
    files: ['cli/**/*.js', 'bench/**/*.js', 'test/**/*.js', 'eslint.config.js'],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: { ...globals.node } },
    rules: { 'no-unused-vars': ['error', { argsIgnorePattern: '^_', caughtErrors: 'none', ignoreRestSiblings: true }] }
  },
  {
    files: ['worker/**/*.js', 'suites/**/*.js', 'bench/fixtures/**/*.js', 'test/fixtures/**/*.js'],
    languageOptions: { ecmaVersion: 5, sourceType: 'script', globals: { ...globals.node, Promise: 'readonly', Map: 'readonly', Set: 'readonly' } },
    rules: { 'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none' }] }
  },
  {
    // The worker's ES module side (loader hooks, the library shims' import faces): Node 18.19+ only.
    files: ['worker/**/*.mjs', 'examples/**/*.mjs', 'test/fixtures/own-code/**/*.mjs', 'bench/fixtures/**/*.mjs', 'test/fixtures/own-code/module-pkg/named.js', 'test/fixtures/own-code/nodenext/*.js'],
    languageOptions: { ecmaVersion: 'latest', sourceType: 'module', globals: { ...globals.node } }
  },
  {
    // Example and fixture files written for benchmark libraries in Node 4's syntax.
    files: ['examples/**/*.cjs', 'test/fixtures/own-code/**/*.cjs'],
    languageOptions: { ecmaVersion: 5, sourceType: 'commonjs', globals: { ...globals.node } },
    rules: { 'no-unused-vars': ['error', { args: 'none', caughtErrors: 'none' }] }
  },
  {
    // Files that declare a newer minimum on their first lines (`// minNode X`): required only after a
    // version check (worker/esm/import.js).
    files: ['worker/esm/import.js'],
    languageOptions: { ecmaVersion: 2020 }
  },
  {
    // Benchmarks declared with minNode for newer syntax (loaded only on runtimes that parse them).
    files: ['suites/promises/pipeline-async-await.js', 'test/fixtures/suites/smoke/async-await.js'],
    languageOptions: { ecmaVersion: 2017 }
  }
];
