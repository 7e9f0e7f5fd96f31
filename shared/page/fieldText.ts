/**
 * One way to compare field text, whoever reads it: inputs give `value`, rich editors give blocks,
 * contenteditable gives `innerText` with its own line-break habits. Comparing the normalized form
 * keeps "the person edited this" apart from "two readers format newlines differently".
 */

export function normalizeFieldText(text: string): string {
  return (
    text
      .replace(/\r\n?/g, '\n')
      .replace(/\u00a0/g, ' ')
      .replace(/\u200b/g, '')
      .split('\n')
      .map((line) => line.replace(/[ \t]+$/, ''))
      // Editors disagree on blank lines between paragraphs, so blank lines do not count.
      .filter((line) => line.trim() !== '')
      .join('\n')
  );
}

/** cyrb53: a fast 53-bit string hash, enough to notice a change; not a security boundary. */
function cyrb53(text: string, seed = 0): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    h1 = Math.imul(h1 ^ code, 2654435761);
    h2 = Math.imul(h2 ^ code, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}

/** The hash inspect reports for a field's value and act compares against. */
export function fieldHash(text: string): string {
  return `v1:${cyrb53(normalizeFieldText(text)).toString(36)}`;
}

export function sameFieldText(a: string, b: string): boolean {
  return normalizeFieldText(a) === normalizeFieldText(b);
}

/** Comparing rich text: editors differ in blank lines and in how they collapse spaces. */
export function looseFieldText(text: string): string {
  return normalizeFieldText(text)
    .split('\n')
    .map((line) => line.replace(/\s+/g, ' ').trim())
    .filter((line) => line !== '')
    .join('\n');
}
