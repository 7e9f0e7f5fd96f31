/**
 * Scenario 6: the person's text. They type after inspect → field_changed with their text intact;
 * typing or an IME composition in progress → refused; a successful write is undone by Ctrl+Z —
 * in a plain field and in a rich editor (Quill, through its own history).
 */
import { expect, test } from '../fixtures.ts';
import { blogModel, blogScene, inspect } from '../support/blogFlow.ts';
import { scenarioCounts } from './counts.ts';
import { untouched } from './untouched.ts';

const pause = () => new Promise((resolve) => setTimeout(resolve, 1600));

test('the person types into Quill after inspect → field_changed; their text stays, and other fields are untouched', async ({ tether, sites }) => {
  const counts = scenarioCounts('person typed after inspect');
  const scene = await blogScene(tether, { editor: 'quill' });
  await inspect(tether, scene);
  const watch = await untouched([scene.cafe], sites);
  await scene.blog.bringToFront();
  await scene.blog.locator('.ql-editor').click();
  await scene.blog.keyboard.type('Mine, not yours');
  await pause();
  const refusal = counts.refused(
    await tether.agent('act', {
      profile: scene.profile,
      workspace: scene.workspace,
      handle: scene.write,
      plan: {
        steps: [
          { op: 'fill', field: 'title', text: 'Agent title' },
          { op: 'fill', field: 'body', text: 'Agent body' },
        ],
        continueDraft: true,
      },
    }),
    'field_changed',
  );
  expect(refusal.details?.problems).toEqual([expect.objectContaining({ step: 1, code: 'field_changed' })]);
  // All or nothing: the title step was valid but did not run either.
  expect(await blogModel(scene.blog)).toEqual({ title: '', body: 'Mine, not yours' });
  expect(await scene.blog.evaluate(() => (window as unknown as { quill: { getText(): string } }).quill.getText())).toBe('Mine, not yours\n');
  await watch.check();
  counts.save();
});

test('typing in progress in another field does not block a write to this one; in this one it does', async ({ tether, sites }) => {
  const counts = scenarioCounts('typing in progress');
  const scene = await blogScene(tether);
  await inspect(tether, scene);
  const watch = await untouched([scene.cafe], sites);
  await scene.blog.bringToFront();
  await scene.blog.locator('#post-body').click();
  await scene.blog.keyboard.type('typing');
  const args = (field: string) => ({
    profile: scene.profile,
    workspace: scene.workspace,
    handle: scene.write,
    plan: { steps: [{ op: 'fill', field, text: 'from the agent' }], continueDraft: true },
  });
  counts.write(await tether.agent('act', args('title')));
  const refusal = counts.refused(await tether.agent('act', args('body')), 'invalid_request');
  expect((refusal.details?.problems as Array<{ code: string }>).map((problem) => problem.code).sort()).toEqual(['field_changed', 'target_busy']);
  expect(await scene.blog.locator('#post-body').inputValue()).toBe('typing');
  // The focus went back to where the person was typing.
  expect(await scene.blog.evaluate(() => document.activeElement?.id)).toBe('post-body');
  await watch.check();
  counts.save();
});

test('Ctrl+Z undoes Tether’s write in Quill, through the editor’s own history', async ({ tether, sites }) => {
  const counts = scenarioCounts('undo in a rich editor');
  const scene = await blogScene(tether, { editor: 'quill' });
  await scene.blog.bringToFront();
  await scene.blog.locator('.ql-editor').click();
  await scene.blog.keyboard.type('My words');
  await pause();
  await inspect(tether, scene);
  const watch = await untouched([scene.cafe], sites);
  counts.write(
    await tether.agent('act', {
      profile: scene.profile,
      workspace: scene.workspace,
      handle: scene.write,
      plan: { steps: [{ op: 'append', field: 'body', text: ' and the agent’s' }], continueDraft: true },
    }),
  );
  const quillText = () => scene.blog.evaluate(() => (window as unknown as { quill: { getText(): string } }).quill.getText());
  expect(await quillText()).toBe('My words and the agent’s\n');
  await scene.blog.locator('.ql-editor').focus();
  await scene.blog.keyboard.press('Control+z');
  await expect.poll(quillText).toBe('My words\n');
  await watch.check();
  counts.save();
});
