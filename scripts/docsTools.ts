/** Writes docs/protocol.md's tool reference from the tool records (`npm run docs:tools`). */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { TOOLS } from '../background/tools/registry.ts';
import { renderToolReference, withToolReference } from '../background/tools/toolReference.ts';

const file = resolve(import.meta.dirname, '..', 'docs', 'protocol.md');
const updated = withToolReference(readFileSync(file, 'utf8'), renderToolReference(TOOLS));
if (updated === null) throw new Error('docs/protocol.md has no tool-reference markers');
writeFileSync(file, updated);
console.log('docs/protocol.md: tool reference written');
