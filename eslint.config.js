// Lint: typescript-eslint's recommended rules, plus the layering rule that keeps the core,
// notation, book, engine and protocol layers browser-safe (no node:* imports there).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const nodeOnly = ['node:*', 'fs', 'path', 'os', 'child_process', 'worker_threads', 'zlib', 'stream', 'readline'];

export default tseslint.config(
  // src/wasm is AssemblyScript (its own types and decorators), checked by its compiler.
  { ignores: ['dist/', 'dist-scratch/', 'node_modules/', 'scratch/', 'src/wasm/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      eqeqeq: ['error', 'smart'],
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_' }],
    },
  },
  {
    files: ['src/core/**', 'src/notation/**', 'src/book/**/format.ts', 'src/book/polyglot/**', 'src/book/rich/**', 'src/book/select/**', 'src/engine/**'],
    ignores: ['**/*.test.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: nodeOnly.map((p) => ({ group: [p], message: 'this layer must stay browser-safe' })) }],
    },
  },
);
