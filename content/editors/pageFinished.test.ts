/**
 * deliver.ts waits for where an editor finishes a write (its descriptor's `finishes`). Editor.js
 * calls a pasted block's onPaste in an idle callback, and its paragraph tool sets the text in an
 * animation frame from there: a wait for the idle period alone returned with the paragraphs still
 * empty on a slow page (the post refused as "holds other text than was written").
 */
import { describe, expect, it } from 'vitest';
import type { Editable } from '../pageTypes.ts';
import { pageFinished } from './deliver.ts';
import { editorjs } from './families/editorjs.ts';

/** A stand-in window whose idle callbacks and frames run only when the test says. */
function page() {
  const idle: Array<() => void> = [];
  const frames: Array<() => void> = [];
  const view = {
    requestIdleCallback: (callback: () => void) => idle.push(callback),
    requestAnimationFrame: (callback: () => void) => frames.push(callback),
    setTimeout: (callback: () => void, ms: number) => (ms === 0 ? queueMicrotask(callback) : 0),
    clearTimeout: () => undefined,
  };
  const editable = { doc: { defaultView: view } } as unknown as Editable;
  const run = (list: Array<() => void>) => list.splice(0).forEach((callback) => callback());
  return { editable, idle: () => run(idle), frame: () => run(frames) };
}

async function settled(promise: Promise<void>): Promise<boolean> {
  let done = false;
  void promise.then(() => (done = true));
  for (let turn = 0; turn < 5; turn++) await Promise.resolve();
  return done;
}

describe('pageFinished', () => {
  it('idle-frame (Editor.js): not after the idle period alone, only once the frame it asked for was drawn', async () => {
    const { editable, idle, frame } = page();
    const waiting = pageFinished(editable, 'idle-frame');
    frame();
    expect(await settled(waiting)).toBe(false);
    idle();
    expect(await settled(waiting)).toBe(false);
    frame();
    expect(await settled(waiting)).toBe(true);
  });

  it('Editor.js waits so', () => {
    expect(editorjs.finishes).toBe('idle-frame');
  });

  it('idle: after the idle period', async () => {
    const { editable, idle } = page();
    const waiting = pageFinished(editable, 'idle');
    idle();
    expect(await settled(waiting)).toBe(true);
  });

  it('frame (Trix): after a frame', async () => {
    const { editable, frame } = page();
    const waiting = pageFinished(editable, 'frame');
    frame();
    expect(await settled(waiting)).toBe(true);
  });
});
