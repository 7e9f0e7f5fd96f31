/** Tether's version, from package.json (the one place it is set): compiled in by the build, read from the file when run from source. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

declare const __TETHER_VERSION__: string | undefined;

function fromPackageJson(): string {
  try {
    return (JSON.parse(readFileSync(resolve(import.meta.dirname, '..', 'package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return '0.0.0';
  }
}

export const TETHER_VERSION: string = typeof __TETHER_VERSION__ === 'string' ? __TETHER_VERSION__ : fromPackageJson();
