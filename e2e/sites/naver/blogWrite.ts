/**
 * Naver Blog's write page inside #mainFrame (PostWriteForm.naver), as the public record shows it
 * (SOURCES.md §7): the header's 저장 and 발행 (발행 only opens the publish layer, which is added to
 * the DOM then), the layer's category menu, tag input (Enter commits a tag) and the final
 * seOnePublishBtn, the draft count, and SmartEditor ONE with its temporary-save prompt, which
 * appears only after the editor has loaded. Publishing posts the editor's document model.
 */
import type { DocumentData } from './editor/model.ts';
import { FixtureSmartEditor, type ApiShape } from './editor/smartEditor.ts';

interface Config {
  blogId: string;
  user: string;
  key: 'blogpc001';
  port: number;
  ignoreUntrustedKeys: boolean;
  api: ApiShape;
  categories: Array<[string, string]>;
}

const config = (window as unknown as { __fixtureConfig: Config }).__fixtureConfig;
const root = document.querySelector<HTMLElement>('#root') as HTMLElement;
const port = config.port;
root.innerHTML = `<div class="header__Ceaap" role="toolbar">
<button type="button" class="save_btn__bzc5B" data-click-area="tpb.save"><span class="text__f81hP">저장</span></button>
<button type="button" class="save_count_btn__ZTLNa" data-click-area="tpb.savelist" aria-label="임시저장된 글 보기, 0개">0</button>
<button type="button" class="reserve_btn__Q8lwr" style="display:none">예약 발행 0건</button>
<button type="button" class="publish_btn__m9KHH" data-click-area="tpb.publish"><span class="text__d09H7">발행</span><i class="ico"></i></button>
</div>
<div class="toast__Xb0lp" role="status"></div>
<div class="editor_area__Ry1Bb"></div>
<div class="layer_host__k9Qq1"></div>`;

const editor = new FixtureSmartEditor({
  key: config.key,
  mount: root.querySelector<HTMLElement>('.editor_area__Ry1Bb') as HTMLElement,
  bodyPlaceholder: '글감과 함께 나의 일상을 기록해보세요!',
  ignoreUntrustedKeys: config.ignoreUntrustedKeys,
  api: config.api,
  upload: {
    sessionKeyUrl: `http://platform.editor.naver.com:${port}/api/blogpc001/v1/photo-uploader/session-key`,
    uploadUrl: (key) =>
      `http://blog.upphoto.naver.com:${port}/${key}/simpleUpload/0?userId=${encodeURIComponent(config.blogId)}&extractExif=true&extractAnimatedCnt=true&autorotate=true&extractDominantColor=false&denyAnimatedImage=false&skipXcamFiltering=false`,
    domain: `http://blogfiles.pstatic.net:${port}`,
  },
  onChange: (data) => autosave(data),
});

// The editor object where every public script looks for it (unless the page is the one without it).
editor.expose();

let autosaveTimer: ReturnType<typeof setTimeout> | undefined;
function autosave(data: DocumentData): void {
  clearTimeout(autosaveTimer);
  autosaveTimer = setTimeout(() => {
    void fetch(`/se-fixture/autosave?key=${config.key}`, { method: 'POST', body: JSON.stringify(data) });
  }, 300);
}

const toast = root.querySelector<HTMLElement>('.toast__Xb0lp') as HTMLElement;
const layerHost = root.querySelector<HTMLElement>('.layer_host__k9Qq1') as HTMLElement;
const countButton = root.querySelector<HTMLElement>('.save_count_btn__ZTLNa') as HTMLElement;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

root.querySelector('[data-click-area="tpb.save"]')?.addEventListener('click', () => {
  if (editor.popupOpen) return;
  const form = new URLSearchParams({ blogId: config.blogId, documentModel: JSON.stringify(editor.data), populationParams: '{}' });
  void fetch('/RabbitTempPostWrite.naver', { method: 'POST', body: form }).then(async (response) => {
    const answer = (await response.json()) as { isSuccess: boolean; result?: { count: number } };
    if (!answer.isSuccess) return;
    const count = String(answer.result?.count ?? 0);
    countButton.textContent = count;
    countButton.setAttribute('aria-label', `임시저장된 글 보기, ${count}개`);
    toast.textContent = '임시저장이 완료되었습니다.';
  });
});

// ---- the publish layer ----

const tags: string[] = [];
let categoryNo = config.categories[0]?.[0] ?? '';

function categoryName(no: string): string {
  return config.categories.find(([id]) => id === no)?.[1] ?? '';
}

function renderTags(layer: HTMLElement): void {
  const box = layer.querySelector<HTMLElement>('.tag_textarea__xY3tb');
  const input = layer.querySelector<HTMLInputElement>('#tag-input');
  if (!box || !input) return;
  box.querySelectorAll('.tag_item__Kq1pT').forEach((chip) => chip.remove());
  for (const tag of tags) {
    const chip = document.createElement('span');
    chip.className = 'tag_item__Kq1pT';
    chip.innerHTML = `<span class="tag_text__cHRrd">#${escapeHtml(tag)}</span><button type="button" class="tag_delete__n2Ks9" aria-label="${escapeHtml(tag)} 태그 삭제">×</button>`;
    chip.querySelector('button')?.addEventListener('click', () => {
      tags.splice(tags.indexOf(tag), 1);
      renderTags(layer);
    });
    box.insertBefore(chip, input);
  }
}

function openLayer(): void {
  if (layerHost.querySelector('[class*="layer_publish"]')) return;
  const options = config.categories
    .map(
      ([no, name]) =>
        `<li class="item__Ak3Ci"><input type="radio" name="category" id="category_${no}" class="radio__oK7bB" value="${no}"${no === categoryNo ? ' checked' : ''}><label for="category_${no}" class="label__d3tY5"><span class="text__sraQE" data-testid="categoryItemText_${no}">${escapeHtml(name)}</span></label></li>`,
    )
    .join('');
  layerHost.innerHTML = `<div class="layer_publish__vA9PX" role="dialog" aria-label="발행 설정">
<strong class="title__p2cH8">발행</strong>
<div class="option_category___kpJc"><strong class="label__Jb7l3">카테고리</strong>
<button type="button" class="selectbox_button__jb1Dt" data-click-area="tpb*i.category" aria-label="카테고리 목록 버튼" aria-expanded="false"><span class="text__sraQE">${escapeHtml(categoryName(categoryNo))}</span></button>
<div class="list__KG7DD" role="menu" hidden><ul>${options}</ul></div></div>
<div class="option_tag__Q2s8K"><strong class="label__Jb7l3">태그 편집</strong><div class="tag_textarea__xY3tb"><input id="tag-input" class="tag_input__rvUB5" type="text" placeholder="#태그 입력 (최대 30개)"></div></div>
<div class="option_open__M4eiG"><strong class="label__Jb7l3">공개 설정</strong>
<input type="radio" name="open_type" id="open_public" value="public" checked><label for="open_public">전체공개</label>
<input type="radio" name="open_type" id="open_neighbor" value="neighbor"><label for="open_neighbor">이웃공개</label>
<input type="radio" name="open_type" id="open_private" value="private"><label for="open_private">비공개</label></div>
<button type="button" class="close_btn__Z2xjG" aria-label="닫기">닫기</button>
<button type="button" class="confirm_btn__WEaBq" data-testid="seOnePublishBtn" data-click-area="tpb*i.publish"><span class="text__d09H7">발행</span></button>
</div>`;
  const layer = layerHost.firstElementChild as HTMLElement;
  const trigger = layer.querySelector<HTMLButtonElement>('[data-click-area="tpb*i.category"]') as HTMLButtonElement;
  const menu = layer.querySelector<HTMLElement>('[role="menu"]') as HTMLElement;
  trigger.addEventListener('click', () => {
    menu.hidden = !menu.hidden;
    trigger.setAttribute('aria-expanded', String(!menu.hidden));
  });
  menu.querySelectorAll<HTMLInputElement>('input[name="category"]').forEach((radio) =>
    radio.addEventListener('change', () => {
      categoryNo = radio.value;
      (trigger.querySelector('.text__sraQE') as HTMLElement).textContent = categoryName(categoryNo);
      menu.hidden = true;
      trigger.setAttribute('aria-expanded', 'false');
    }),
  );
  const input = layer.querySelector<HTMLInputElement>('#tag-input') as HTMLInputElement;
  // Enter commits the typed tag (AIM, JHN, FDX); a React handler, so a synthetic Enter counts too (guessed).
  input.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || event.isComposing) return;
    event.preventDefault();
    const tag = input.value.replace(/^#+/, '').trim();
    input.value = '';
    if (tag && !tags.includes(tag) && tags.length < 30) tags.push(tag);
    renderTags(layer);
  });
  renderTags(layer);
  layer.querySelector('.close_btn__Z2xjG')?.addEventListener('click', () => layer.remove());
  layer.querySelector('[data-testid="seOnePublishBtn"]')?.addEventListener('click', () => publish(layer));
}

root.querySelector('[data-click-area="tpb.publish"]')?.addEventListener('click', () => {
  // The temporary-save prompt blocks the toolbar and 발행 while it is open (FDX).
  if (!editor.popupOpen) openLayer();
});

function publish(layer: HTMLElement): void {
  const open = layer.querySelector<HTMLInputElement>('input[name="open_type"]:checked')?.value ?? 'public';
  const form = new URLSearchParams({
    blogId: config.blogId,
    documentModel: JSON.stringify(editor.data),
    populationParams: JSON.stringify({ categoryNo, tags: tags.join(','), openType: open }),
    productApiVersion: 'v1',
  });
  void fetch('/RabbitWrite.naver', { method: 'POST', body: form }).then(async (response) => {
    const answer = (await response.json()) as { isSuccess: boolean; result?: { redirectUrl: string } };
    if (answer.isSuccess && answer.result) top?.location.assign(answer.result.redirectUrl);
    else toast.textContent = '발행하지 못했습니다.';
  });
}

// ---- the temporary-save prompt: after the editor has loaded (C3 waits ~6 s for it, AIM 2 s) ----

void (async () => {
  const response = await fetch(`/se-fixture/autosave?key=${config.key}`, { cache: 'no-store' });
  if (response.status !== 200) return;
  const saved = (await response.json()) as DocumentData;
  await new Promise((resolve) => setTimeout(resolve, 400));
  if (await editor.confirm('작성 중인 글이 있습니다.', '이어서 작성하시겠습니까?')) editor.load(saved);
})();
document.body.dataset.editorReady = 'smarteditor-one';
