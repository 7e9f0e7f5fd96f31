/**
 * The Naver fixture itself (e2e/sites/naver/), checked against what its SOURCES.md says it does:
 * the canvas is a view of the model (a DOM-only edit is lost), setDocumentData normalizes and
 * throws on a malformed model, the input buffer takes synthetic pastes (and, by its switch,
 * ignores synthetic keys), the uploader answers as the record says and a photo is served only at
 * the answer's url, the temporary-save prompt comes after the editor loads, publishing posts the
 * model. Tether is not involved: these are the ground the driver's tests stand on.
 */
import type { Frame, Page } from '@playwright/test';
import { expect, test } from './fixtures.ts';
import type { RunningSites } from './sites/server.ts';

async function blogEditor(page: Page, sites: RunningSites, query = ''): Promise<Frame> {
  await page.goto(sites.at('blog.naver.com', `/nidlogin?as=alice_nv&next=${encodeURIComponent(`/alice_nv?Redirect=Write${query}`)}`));
  const frame = page.frame({ name: 'mainFrame' });
  if (!frame) throw new Error('no mainFrame');
  await frame.waitForFunction(() => document.body.dataset.editorReady === 'smarteditor-one');
  return frame;
}

interface Model {
  document: { components: Array<Record<string, unknown> & { '@ctype': string }> };
}

const model = (frame: Frame) => frame.evaluate(() => (window as unknown as { __fixture: { model(): Model } }).__fixture.model());
const bodyText = (frame: Frame) =>
  frame.evaluate(() =>
    Array.from(document.querySelectorAll('.se-components-wrap .se-component:not(.se-documentTitle) p.se-text-paragraph'))
      .map((p) =>
        Array.from(p.querySelectorAll('.__se-node'))
          .map((node) => node.textContent?.replace(/\u200b/g, '') ?? '')
          .join(''),
      )
      .join('\n'),
  );

test('the canvas is a view of the model: setDocumentData renders, a DOM-only edit is lost on the next render, a malformed model throws', async ({
  tether,
  sites,
}) => {
  const frame = await blogEditor(await tether.context.newPage(), sites);
  const outcome = await frame.evaluate(() => {
    const editor = (window as unknown as { SmartEditor: { _editors: Record<string, { getDocumentData(): Model; setDocumentData(data: unknown): void }> } })
      .SmartEditor._editors.blogpc001;
    if (!editor) throw new Error('no editor');
    const data = editor.getDocumentData();
    const title = data.document.components[0];
    data.document.components = [
      title as Model['document']['components'][number],
      { '@ctype': 'text', value: [{ '@ctype': 'paragraph', nodes: [{ '@ctype': 'textNode', value: '첫 문단' }] }] },
      {
        '@ctype': 'text',
        value: [{ '@ctype': 'paragraph', nodes: [{ '@ctype': 'textNode', value: '둘째', style: { bold: true, glow: true, '@ctype': 'nodeStyle' } }] }],
      },
    ];
    editor.setDocumentData(data);
    let threw = '';
    try {
      editor.setDocumentData({ document: { components: [{ '@ctype': 'documentTitle', value: [] }] } });
    } catch (error) {
      threw = String(error);
    }
    return { threw, after: editor.getDocumentData() };
  });
  expect(outcome.threw).toContain("Cannot read properties of undefined (reading 'forEach')");
  // Normalized: the two text components are one, the unknown style key is gone, ids were filled in.
  const text = outcome.after.document.components.filter((component) => component['@ctype'] === 'text');
  expect(text).toHaveLength(1);
  expect(JSON.stringify(text[0])).not.toContain('glow');
  expect(JSON.stringify(text[0])).toMatch(/"id":"SE-/);
  await expect.poll(() => bodyText(frame)).toBe('첫 문단\n둘째');
  await expect(frame.locator('.se-component.se-text b')).toHaveText('둘째');

  // A DOM-only edit: visible until the editor renders again, and never in the model.
  await frame.evaluate(() => {
    const span = document.querySelector('.se-component.se-text .__se-node');
    if (span) span.textContent = 'DOM만 고침';
  });
  expect(await bodyText(frame)).toContain('DOM만 고침');
  expect(JSON.stringify(await model(frame))).not.toContain('DOM만 고침');
  await frame.evaluate(() =>
    (
      window as unknown as { SmartEditor: { _editors: { blogpc001: { setDocumentTitle(text: string): void } } } }
    ).SmartEditor._editors.blogpc001.setDocumentTitle('제목'),
  );
  await expect.poll(() => bodyText(frame)).toBe('첫 문단\n둘째');
});

test('the input buffer takes a synthetic paste; synthetic keys work or are ignored by the switch; trusted keys always work', async ({ tether, sites }) => {
  const page = await tether.context.newPage();
  for (const query of ['', '&keys=trusted-only']) {
    const frame = await blogEditor(page, sites, query);
    await frame.locator('.se-component.se-text p.se-text-paragraph').first().dispatchEvent('mousedown');
    const buffer = frame.frameLocator('#input_buffer').locator('body');
    await buffer.evaluate((body) => {
      const data = new DataTransfer();
      data.setData('text/html', '<div>붙여 넣은 <b>굵은</b> 글</div><div><a href="https://example.com/">링크</a></div>');
      body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    });
    await expect.poll(() => bodyText(frame)).toBe('붙여 넣은 굵은 글\n링크');
    await expect(frame.locator('.se-component.se-text span.se-link[data-href="https://example.com/"]')).toHaveText('링크');
    // A synthetic Ctrl+Z: undone, unless the switch makes the editor ignore untrusted keys.
    await buffer.evaluate((body) => body.dispatchEvent(new KeyboardEvent('keydown', { key: 'z', ctrlKey: true, bubbles: true })));
    if (query === '') await expect.poll(() => bodyText(frame)).toBe('');
    else {
      expect(await bodyText(frame)).toBe('붙여 넣은 굵은 글\n링크');
      // The person's own Ctrl+Z is trusted: it undoes the paste.
      await page.keyboard.press('Control+z');
      await expect.poll(() => bodyText(frame)).toBe('');
    }
  }
});

test('the uploader: a session key, multipart `image`, an XML answer; the photo is served at the answer’s url and its bare path is 404', async ({
  tether,
  sites,
}) => {
  const page = await tether.context.newPage();
  const frame = await blogEditor(page, sites);
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAADCAIAAAA2iEnWAAAAEElEQVR4nGP4z8AARAwMDAAj8gP9hWvZWwAAAABJRU5ErkJggg==', 'base64');
  const answer = await frame.evaluate(async (bytes) => {
    const service = (
      window as unknown as {
        SmartEditor: {
          _editors: {
            blogpc001: {
              _videoUploadService: {
                _imageUploadService: {
                  createSourceList(ids: string[], files: File[]): unknown;
                  uploadImagesFromFiles(list: unknown): Promise<Array<Promise<{ code: string; response: Record<string, string | number> }>>>;
                };
              };
            };
          };
        };
      }
    ).SmartEditor._editors.blogpc001._videoUploadService._imageUploadService;
    const file = new File([new Uint8Array(bytes)], 'market.png', { type: 'image/png' });
    const pending = await service.uploadImagesFromFiles(service.createSourceList(['a'], [file]));
    return Promise.all(pending);
  }, Array.from(png));
  const response = answer[0]?.response ?? {};
  expect(answer[0]?.code).toBe('SUCCESS');
  expect(response).toMatchObject({ fileName: 'market.png', width: 2, height: 3, fileSize: png.length, imageType: 'PNG' });
  expect(String(response.url)).toBe(`${String(response.path)}/market.png`);
  expect(sites.naver.uploads).toEqual([{ host: 'blog.upphoto.naver.com', fileName: 'market.png', size: png.length, type: 'image/png' }]);
  // Loaded as the editor's <img> loads it (the image hosts resolve only in the test browser).
  const loads = (src: string) =>
    frame.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const image = new Image();
          image.onload = () => resolve(`${image.naturalWidth}x${image.naturalHeight}`);
          image.onerror = () => resolve('error');
          image.src = url;
        }),
      src,
    );
  expect(await loads(`${String(response.domain)}${String(response.url)}?type=w1`)).toBe('2x3');
  expect(await loads(`${String(response.domain)}${String(response.path)}?type=w1`)).toBe('error');
});

test('the temporary-save prompt appears after the editor loads when an autosave exists: 확인 loads it, 취소 keeps it saved', async ({ tether, sites }) => {
  const page = await tether.context.newPage();
  const frame = await blogEditor(page, sites);
  await frame.evaluate(() =>
    (
      window as unknown as { SmartEditor: { _editors: { blogpc001: { setDocumentTitle(text: string): void } } } }
    ).SmartEditor._editors.blogpc001.setDocumentTitle('쓰다 만 글'),
  );
  await expect.poll(() => sites.naver.autosave.size).toBe(1);

  const again = await blogEditor(page, sites);
  const prompt = again.locator('.se-popup-container');
  await expect(prompt.locator('.se-popup-title')).toHaveText('작성 중인 글이 있습니다.');
  await expect(prompt.locator('.se-popup-alert-text')).toContainText('이어서 작성하시겠습니까?');
  // While it is open, 발행 opens nothing.
  await again.locator('[data-click-area="tpb.publish"]').dispatchEvent('click');
  expect(await again.locator('[class*="layer_publish"]').count()).toBe(0);
  await prompt.locator('button.se-popup-button-cancel').click();
  await expect(prompt).toHaveCount(0);
  expect(sites.naver.autosave.size).toBe(1);

  const third = await blogEditor(page, sites);
  await third.locator('.se-popup-container button.se-popup-button-confirm').click();
  await expect(third.locator('.se-documentTitle .__se-node')).toHaveText('쓰다 만 글');
});

test('publishing: 발행 opens the layer; category, tags committed by Enter, and seOnePublishBtn post the model, not the DOM', async ({ tether, sites }) => {
  const page = await tether.context.newPage();
  const frame = await blogEditor(page, sites);
  await frame.evaluate(() =>
    (
      window as unknown as { SmartEditor: { _editors: { blogpc001: { setDocumentTitle(text: string): void } } } }
    ).SmartEditor._editors.blogpc001.setDocumentTitle('시장 소식'),
  );
  await expect(frame.locator('.se-documentTitle .__se-node')).toHaveText('시장 소식');
  await frame.evaluate(() => {
    const node = document.querySelector('.se-documentTitle .__se-node');
    if (node) node.textContent = 'DOM에만';
  });
  expect(await frame.locator('[class*="layer_publish"]').count()).toBe(0);
  await frame.locator('[data-click-area="tpb.publish"]').click();
  await frame.locator('[aria-label="카테고리 목록 버튼"]').click();
  await frame.locator('[data-testid="categoryItemText_7"]').click();
  for (const tag of ['봄', '시장']) {
    await frame.locator('#tag-input').fill(tag);
    await frame.locator('#tag-input').press('Enter');
  }
  await frame.locator('#tag-input').fill('덜 쓴 태그');
  await frame.locator('[data-testid="seOnePublishBtn"]').click();
  await expect.poll(() => sites.naver.posts.length).toBe(2);
  const post = sites.naver.posts[1];
  expect(post).toMatchObject({ blogId: 'alice_nv', category: '7', tags: ['봄', '시장'] });
  expect(JSON.stringify(post?.data)).toContain('시장 소식');
  expect(JSON.stringify(post?.data)).not.toContain('DOM에만');
  await expect(page).toHaveURL(/PostView\.naver\?blogId=alice_nv&Redirect=View&logNo=\d+&isAfterWrite=true/);
});
