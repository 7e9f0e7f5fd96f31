/**
 * TypeScript's parser, as import-x reads the modules a file imports, with every type-only import
 * and export read as a value one: import-x's no-cycle skips type-only edges (4.18.1 has no option
 * not to), and a type cycle is a layering inversion like any other (eslint.config.js, no-cycle).
 * Used only for import-x's dependency graph (`import-x/parsers`), never to lint a file.
 */
'use strict';
// import-x loads a parser with require(), so this is CommonJS.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const parser = require('@typescript-eslint/parser');

const KINDS = new Set(['ImportDeclaration', 'ExportNamedDeclaration', 'ExportAllDeclaration']);

function countTypes(program) {
  for (const node of program.body) {
    if (!KINDS.has(node.type)) continue;
    if ('importKind' in node) node.importKind = 'value';
    if ('exportKind' in node) node.exportKind = 'value';
    for (const specifier of node.specifiers ?? []) {
      if ('importKind' in specifier) specifier.importKind = 'value';
      if ('exportKind' in specifier) specifier.exportKind = 'value';
    }
  }
  return program;
}

module.exports = {
  ...parser,
  meta: { name: 'tether-type-imports-count', version: '1' },
  parseForESLint(code, options) {
    const result = parser.parseForESLint(code, options);
    countTypes(result.ast);
    return result;
  },
  countTypes,
};
