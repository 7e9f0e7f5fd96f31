/**
 * Headings at the levels an editor keeps (issue 24, item 4). Tether writes h2–h4 (a post's title
 * is its own field); an editor that keeps fewer levels gets each at the nearest level it keeps —
 * the deepest one above it, else the shallowest below — so an h1-only editor (Trix) gets h1, and
 * one without h4 (CKEditor 4's standard preset) gets h3. A heading with no level to go to is a
 * paragraph, and is reported dropped.
 */
import type { HeadingLevel } from './families/family.ts';

const LEVELS: readonly HeadingLevel[] = ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'];

/** The level `level` is written at in an editor that keeps `keeps`; null: it keeps no heading. */
export function headingFor(level: HeadingLevel, keeps: readonly HeadingLevel[]): HeadingLevel | null {
  if (keeps.includes(level)) return level;
  const depth = LEVELS.indexOf(level);
  const above = keeps.filter((kept) => LEVELS.indexOf(kept) < depth).sort();
  const below = keeps.filter((kept) => LEVELS.indexOf(kept) > depth).sort();
  return above[above.length - 1] ?? below[0] ?? null;
}

export function isHeading(name: string): name is HeadingLevel {
  return (LEVELS as readonly string[]).includes(name);
}

/** Rewrites the headings of `body` (a detached copy) to the levels the editor keeps. */
export function mapHeadings(body: HTMLElement, keeps: readonly HeadingLevel[]): void {
  body.querySelectorAll<HTMLElement>(LEVELS.join(', ')).forEach((heading) => {
    const level = heading.tagName.toLowerCase() as HeadingLevel;
    const target = headingFor(level, keeps) ?? 'p';
    if (target === level) return;
    const replacement = body.ownerDocument.createElement(target);
    replacement.append(...Array.from(heading.childNodes));
    heading.replaceWith(replacement);
  });
}

/** How many headings of each level an editor's content holds. */
export function headingCounts(root: ParentNode): Record<HeadingLevel, number> {
  const counts = {} as Record<HeadingLevel, number>;
  for (const level of LEVELS) counts[level] = root.querySelectorAll(level).length;
  return counts;
}
