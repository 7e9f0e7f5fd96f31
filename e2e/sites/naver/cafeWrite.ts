/**
 * Naver Cafe's write page (cafe.naver.com/ca-fe/cafes/<id>/articles/write…), as the public record
 * shows it (SOURCES.md §8): the title is a plain textarea, the board a FormSelectBox button that
 * opens its option list (a menuId in the URL preselects it), the body SmartEditor ONE (editor key
 * cafepc001) under `#SmartEditor.CafeEditor`, tags an input that commits on Enter (guessed), and
 * 등록 the green BaseButton in the write header, which posts the editor's model as contentJson.
 */
import { FixtureSmartEditor, type ApiShape } from './editor/smartEditor.ts';

interface Config {
  cafeId: string;
  user: string;
  key: 'cafepc001';
  port: number;
  menuId: string;
  boards: Array<[string, string]>;
  ignoreUntrustedKeys: boolean;
  api: ApiShape;
}

const config = (window as unknown as { __fixtureConfig: Config }).__fixtureConfig;
const port = config.port;
const app = document.querySelector<HTMLElement>('#app') as HTMLElement;

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

let menuId = config.boards.some(([id]) => id === config.menuId) ? config.menuId : '';
const boardName = (id: string) => config.boards.find(([no]) => no === id)?.[1] ?? '게시판을 선택해 주세요.';

app.innerHTML = `<div class="WritingWrap"><div class="WritingHeader"><h2 class="title">카페 글쓰기</h2><div class="tool_area">
<div class="temp_save_area"><button type="button" class="btn_temp_save">임시등록</button><button type="button" class="btn_temp_count">0</button></div>
<a href="#" role="button" class="BaseButton BaseButton--skinGreen size_default"><span class="BaseButton__txt">등록</span></a>
</div></div>
<p class="WritingStatus" role="status"></p>
<div class="WritingContent"><div class="WritingEditor">
<div class="ArticleWritingTitle"><div class="row"><div class="FormSelectBox"><div class="FormSelectButton"><button type="button" class="button" aria-haspopup="listbox" aria-expanded="false">${escapeHtml(boardName(menuId))}</button></div>
<ul class="option_list" role="listbox" hidden>${config.boards.map(([id, name]) => `<li class="item" role="option" aria-selected="${id === menuId}"><button type="button" class="option" data-menu-id="${id}">${escapeHtml(name)}</button></li>`).join('')}</ul></div></div>
<div class="row"><div class="FlexableTextArea"><textarea placeholder="제목을 입력해 주세요." class="textarea_input" style="height:36px"></textarea></div></div></div>
<div id="SmartEditor" class="CafeEditor"><div class="se-body"></div></div>
<div class="WritingTag"><div class="tag_inner"><div class="tag_input_box inactive"><ul class="tag_list"></ul><input type="text" placeholder="태그를 입력해주세요 (최대 10개)" class="tag_input"></div></div></div>
</div></div></div>`;

const editor = new FixtureSmartEditor({
  key: config.key,
  mount: app.querySelector<HTMLElement>('.se-body') as HTMLElement,
  bodyPlaceholder: '내용을 입력하세요.',
  ignoreUntrustedKeys: config.ignoreUntrustedKeys,
  api: config.api,
  upload: {
    sessionKeyUrl: `http://platform.editor.naver.com:${port}/api/cafepc001/v1/photo-uploader/session-key`,
    uploadUrl: (key) =>
      `http://cafe.upphoto.naver.com:${port}/${key}/simpleUpload/0?userId=${encodeURIComponent(config.user)}&extractExif=true&autorotate=true`,
    domain: `http://cafeptthumb-phinf.pstatic.net:${port}`,
  },
});

// With no editor object, `window.SmartEditor` is still something here: the element #SmartEditor (a named property).
editor.expose();

const status = app.querySelector<HTMLElement>('.WritingStatus') as HTMLElement;
const trigger = app.querySelector<HTMLButtonElement>('.FormSelectButton button.button') as HTMLButtonElement;
const list = app.querySelector<HTMLElement>('ul.option_list') as HTMLElement;
trigger.addEventListener('click', () => {
  list.hidden = !list.hidden;
  trigger.setAttribute('aria-expanded', String(!list.hidden));
});
list.querySelectorAll<HTMLButtonElement>('button.option').forEach((option) =>
  option.addEventListener('click', () => {
    menuId = option.dataset.menuId ?? '';
    trigger.textContent = boardName(menuId);
    list.querySelectorAll('li').forEach((item) => item.setAttribute('aria-selected', String(item.contains(option))));
    list.hidden = true;
    trigger.setAttribute('aria-expanded', 'false');
  }),
);

const tags: string[] = [];
const tagInput = app.querySelector<HTMLInputElement>('input.tag_input') as HTMLInputElement;
const tagList = app.querySelector<HTMLElement>('ul.tag_list') as HTMLElement;
function renderTags(): void {
  tagList.innerHTML = tags
    .map(
      (tag) =>
        `<li class="tag_item"><span class="tag_text">#${escapeHtml(tag)}</span><button type="button" class="btn_delete" aria-label="${escapeHtml(tag)} 삭제">×</button></li>`,
    )
    .join('');
  tagList.querySelectorAll('button.btn_delete').forEach((button, index) =>
    button.addEventListener('click', () => {
      tags.splice(index, 1);
      renderTags();
    }),
  );
}
tagInput.addEventListener('keydown', (event) => {
  if (event.key !== 'Enter' || event.isComposing) return;
  event.preventDefault();
  const tag = tagInput.value.replace(/^#+/, '').trim();
  tagInput.value = '';
  if (tag && !tags.includes(tag) && tags.length < 10) tags.push(tag);
  renderTags();
});

let temporary = 0;
app.querySelector('button.btn_temp_save')?.addEventListener('click', () => {
  temporary += 1;
  (app.querySelector('.btn_temp_count') as HTMLElement).textContent = String(temporary);
  status.textContent = '임시등록 되었습니다.';
});

app.querySelector('.WritingHeader a.BaseButton--skinGreen')?.addEventListener('click', (event) => {
  event.preventDefault();
  const subject = (app.querySelector('textarea.textarea_input') as HTMLTextAreaElement).value;
  if (!menuId) {
    status.textContent = '게시판을 선택해 주세요.';
    return;
  }
  if (!subject.trim()) {
    status.textContent = '제목을 입력해 주세요.';
    return;
  }
  const article = {
    cafeId: config.cafeId,
    contentJson: JSON.stringify(editor.data),
    from: 'pc',
    menuId,
    subject,
    tagList: tags,
    editorVersion: 4,
    parentId: 0,
    open: false,
  };
  void fetch(`http://apis.cafe.naver.com:${port}/editor/v2.0/cafes/${config.cafeId}/menus/${menuId}/articles`, {
    method: 'POST',
    credentials: 'include',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ article }),
  }).then(async (response) => {
    if (response.status !== 200) {
      status.textContent = '등록하지 못했습니다.';
      return;
    }
    const answer = (await response.json()) as { result: { articleId: number } };
    location.assign(`/ca-fe/cafes/${config.cafeId}/articles/${answer.result.articleId}`);
  });
});
document.body.dataset.editorReady = 'smarteditor-one';
