/** Global setup/teardown: prints the Chromium and Firefox the suite runs on, resets and then prints the reliability suite's totals. */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { chromiumVersion, firefoxVersions } from './chromiumVersion.ts';
import { COUNTS_FILE, type Counts } from './reliability/counts.ts';

export function resetCounts(): void {
  rmSync(COUNTS_FILE, { force: true });
}

export function printCounts(): void {
  if (!existsSync(COUNTS_FILE)) return;
  const lines = readFileSync(COUNTS_FILE, 'utf8')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as Counts);
  const scenarios = new Set(lines.map((line) => line.scenario)).size;
  const inputs = lines.reduce((sum, line) => sum + (line.inputs ?? 0), 0);
  const writes = lines.reduce((sum, line) => sum + (line.writes ?? 0), 0);
  console.log(`\nReliability: ${scenarios} scenarios, ${inputs} generated inputs, ${writes} writes checked against their binding.`);
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
