/**
 * The images a plan places, wherever it names them: an `image` step's source, and each
 * `![alt](image:KEY)` of a markdown fill/append, whose source is the step's `images[KEY]`. Pure:
 * the MCP server, the worker and the act module agree on one list, in plan order.
 */
import { MAX_IMAGES_PER_ACT } from '../imageBytes.ts';
import type { ImageSource, Plan, PlanStep } from './planSchema.ts';

/** `![alt](image:KEY)` in markdown: an image the step's `images` map gives by KEY. */
export const MARKDOWN_IMAGE = /!\[([^\]\n]{0,1000})\]\(image:([A-Za-z0-9_-]{1,40})\)/g;

export interface ImageUse {
  /** Its step's index in the plan. */
  step: number;
  /** `3` for an image step, `3/ridge` for `![…](image:ridge)` in step 3. */
  use: string;
  source: ImageSource;
  alt: string;
  /** Where an image step goes (a block's first words), when not at the end. */
  after?: string;
}

export type ImageSourceKind = 'reference' | 'file' | 'inline';

export function sourceKind(source: ImageSource): ImageSourceKind {
  return 'ref' in source ? 'reference' : 'file' in source ? 'file' : 'inline';
}

/** Markdown text and the images between its pieces, in order (an image always stands as a block of its own). */
export interface MarkdownPiece {
  text: string;
  image?: { key: string; alt: string };
}

export function markdownPieces(text: string): MarkdownPiece[] {
  const pieces: MarkdownPiece[] = [];
  let at = 0;
  for (const match of text.matchAll(MARKDOWN_IMAGE)) {
    pieces.push({ text: text.slice(at, match.index), image: { key: match[2] ?? '', alt: (match[1] ?? '').trim() } });
    at = match.index + match[0].length;
  }
  pieces.push({ text: text.slice(at) });
  return pieces;
}

function stepImages(step: PlanStep, index: number): { uses: ImageUse[]; problems: string[] } {
  if (step.op === 'image') {
    return {
      uses: [{ step: index, use: String(index), source: step.source, alt: step.alt, ...(step.after === undefined ? {} : { after: step.after }) }],
      problems: [],
    };
  }
  if (step.op !== 'fill' && step.op !== 'append') return { uses: [], problems: [] };
  const images = step.images ?? {};
  const keys = Object.keys(images);
  if (keys.length === 0) return { uses: [], problems: [] };
  if (step.format !== 'markdown') return { uses: [], problems: [`images are placed by markdown (![alt](image:KEY)): set format to "markdown"`] };
  const uses: ImageUse[] = [];
  const problems: string[] = [];
  const used = new Set<string>();
  for (const piece of markdownPieces(step.text)) {
    if (!piece.image) continue;
    const source = images[piece.image.key];
    if (!source) {
      problems.push(`the text names image:${piece.image.key}, which images does not have (it has ${keys.join(', ')})`);
      continue;
    }
    used.add(piece.image.key);
    uses.push({ step: index, use: `${index}/${piece.image.key}`, source, alt: piece.image.alt });
  }
  for (const key of keys) if (!used.has(key)) problems.push(`images.${key} is not placed: put ![alt](image:${key}) where it goes in the text`);
  return { uses, problems };
}

/** Every image the plan places, and what is wrong with how it names them (by step). */
export function planImages(plan: Plan): { uses: ImageUse[]; problems: Array<{ step: number; message: string }> } {
  const uses: ImageUse[] = [];
  const problems: Array<{ step: number; message: string }> = [];
  plan.steps.forEach((step, index) => {
    const found = stepImages(step, index);
    uses.push(...found.uses);
    for (const message of found.problems) problems.push({ step: index, message });
  });
  if (uses.length > MAX_IMAGES_PER_ACT) {
    problems.push({
      step: uses[MAX_IMAGES_PER_ACT]?.step ?? 0,
      message: `${uses.length} images in one act; at most ${MAX_IMAGES_PER_ACT}: send the rest in another act`,
    });
  }
  return { uses, problems };
}

/** The plan with every image source replaced: what the page, the journal and an approval's digest get. */
export function mapImageSources(plan: Plan, replace: (source: ImageSource, use: string) => ImageSource): Plan {
  return {
    ...plan,
    steps: plan.steps.map((step, index) => {
      if (step.op === 'image') return { ...step, source: replace(step.source, String(index)) };
      if ((step.op === 'fill' || step.op === 'append') && step.images) {
        return { ...step, images: Object.fromEntries(Object.entries(step.images).map(([key, source]) => [key, replace(source, `${index}/${key}`)])) };
      }
      return step;
    }),
  };
}
