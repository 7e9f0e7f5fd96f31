/** Which Chromium the suites run on, so every printed result says what it was measured on. */
import { execFileSync } from 'node:child_process';
import { CHROMIUM } from './support/launchTether.ts';

export function chromiumVersion(): string {
  try {
    // Debian's /usr/bin/chromium is a wrapper script; the binary's own line is on stdout.
    const line = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return `${line.split('\n').pop() ?? line} (${CHROMIUM})`;
  } catch (error) {
    return `unknown version of ${CHROMIUM} (${error instanceof Error ? error.message : String(error)})`;
  }
}
