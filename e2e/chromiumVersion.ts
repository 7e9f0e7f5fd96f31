/** Which Chromium (and Firefox) the suites run on, so every printed result says what it was measured on. */
import { execFileSync } from 'node:child_process';
import { CHROMIUM } from './support/launchTether.ts';
import { DEFAULT_FIREFOX } from './tetherBrowsers.ts';

export function chromiumVersion(): string {
  try {
    // Debian's /usr/bin/chromium is a wrapper script; the binary's own line is on stdout.
    const line = execFileSync(CHROMIUM, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return `${line.split('\n').pop() ?? line} (${CHROMIUM})`;
  } catch (error) {
    return `unknown version of ${CHROMIUM} (${error instanceof Error ? error.message : String(error)})`;
  }
}

/** The Firefox binaries of the Firefox projects (TETHER_FIREFOX, ":"-separated), each with its version. */
export function firefoxVersions(): string {
  const binaries = (process.env.TETHER_FIREFOX ?? DEFAULT_FIREFOX).split(':').filter(Boolean);
  return binaries
    .map((binary) => {
      try {
        return `${execFileSync(binary, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 30_000 }).trim()} (${binary})`;
      } catch {
        return `no Firefox at ${binary}`;
      }
    })
    .join('; ');
}
