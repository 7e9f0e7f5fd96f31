/** Global setup/teardown: prints the Chromium and Firefox the suite runs on, resets and then prints the reliability suite's totals. */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { chromiumVersion, firefoxVersions } from './chromiumVersion.ts';
import { COUNTS_FILE, type Counts } from './reliability/counts.ts';

export function resetCounts(): void {
  rmSync(COUNTS_FILE, { force: true });
}

export interface Totals {
  scenarios: number;
  generated: number;
  crafted: number;
  checkedWrites: number;
  otherWrites: number;
  refusals: Record<string, number>;
}

/** Sums the lines scenarioCounts() wrote (what each means: e2e/reliability/counts.ts). */
export function totals(lines: Counts[]): Totals {
  const refusals: Record<string, number> = {};
  for (const line of lines) for (const [code, count] of Object.entries(line.refusals)) refusals[code] = (refusals[code] ?? 0) + count;
  return {
    scenarios: new Set(lines.map((line) => line.scenario)).size,
    generated: lines.reduce((sum, line) => sum + line.generated, 0),
    crafted: lines.reduce((sum, line) => sum + line.crafted, 0),
    checkedWrites: lines.reduce((sum, line) => sum + line.checkedWrites, 0),
    otherWrites: lines.reduce((sum, line) => sum + line.otherWrites, 0),
    refusals,
  };
}

export function printCounts(): void {
  if (!existsSync(COUNTS_FILE)) return;
  const lines = readFileSync(COUNTS_FILE, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Counts);
  const sum = totals(lines);
  const refused = Object.values(sum.refusals).reduce((all, count) => all + count, 0);
  const byCode = Object.entries(sum.refusals)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([code, count]) => `${code} ${count}`)
    .join(', ');
  console.log(
    `\nReliability: ${sum.scenarios} scenarios, ${sum.generated} generated inputs (fast-check), ${sum.crafted} crafted inputs, ` +
      `${sum.checkedWrites} writes checked against their binding ` +
      `(ran after something could have changed it), ${sum.otherWrites} other writes, ${refused} refusals with the expected code (${byCode || 'none'}).`,
  );
  writeFileSync(COUNTS_FILE.replace(/\.jsonl$/, '.json'), `${JSON.stringify(sum, null, 2)}\n`);
}

export default function globalSetup(): () => void {
  resetCounts();
  const version = `${chromiumVersion()}; the Firefox projects on ${firefoxVersions()}`;
  console.log(`Running on ${version}`);
  return () => {
    printCounts();
    console.log(`Ran on ${version}`);
  };
}
