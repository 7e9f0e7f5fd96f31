import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isEditorChrome, type Control } from './editorChrome.ts';

/** A button beside an editor, in no bar, saying nothing: an action until its words or place say otherwise. */
const plain: Control = {
  label: 'Thing',
  hints: ' ',
  insideEditable: false,
  knownChrome: false,
  inNamedBar: false,
  leavesPage: false,
  besideEditor: () => true,
};
const control = (change: Partial<Control>): Control => ({ ...plain, ...change });
const away = { besideEditor: () => false };

/** Labels of editors' toolbars (the editors issue 24 tried, and their Korean counterparts). */
const FORMATTING = [
  'Bold',
  'Italic',
  'Headings',
  'heading_2',
  'Heading 2',
  'Bullets',
  'Numbers',
  'Bulleted list',
  'Insert image',
  'insert_codeblock',
  'Code block',
  'Quote',
  'Link',
  'Indent',
  'Undo',
  'Redo',
  'Table',
  'Attach Files',
  'Strikethrough',
  'Format Bold',
  '굵게',
  '기울임꼴',
  '제목 2',
  '글머리 기호 목록',
  '링크 삽입',
  '인용구',
  '실행 취소',
  '다시 실행',
  '표',
  '사진',
  '파일 첨부',
];
/** What the page's own buttons say (en, ko). */
const PAGE_ACTIONS = ['Publish', 'Save draft', 'Post comment', 'Submit', 'Send', 'Done', '발행', '저장', '임시저장', '등록', '완료', '보내기', '공개 발행'];

describe('editor chrome: a control that changes the text, beside an editor, is not an action', () => {
  it.each(FORMATTING)('%j beside an editor is chrome; away from any editor it is an action', (label) => {
    expect(isEditorChrome(control({ label }))).toBe(true);
    expect(isEditorChrome(control({ label, ...away }))).toBe(false);
  });

  it.each(['Undo', 'Format Bold', '굵게', 'Insert code block', '표'])(
    'an icon button whose aria-label or title says %j, beside an editor, is chrome',
    (hint) => {
      expect(isEditorChrome(control({ label: '', hints: hint }))).toBe(true);
      expect(isEditorChrome(control({ label: '', hints: hint, ...away }))).toBe(false);
    },
  );

  it.each(['body', 'h2', 'p', 'li', 'p.lead', 'div#main', 'BODY', 'strong'])('an element path’s crumb %j, beside an editor, is chrome', (label) => {
    expect(isEditorChrome(control({ label }))).toBe(true);
    expect(isEditorChrome(control({ label, ...away }))).toBe(false);
  });

  it.each(['Reply', 'Like', 'Report', 'Next page', 'Category', 'Body text', 'Tablet', 'Listen', 'Codex', '투표', '발표 자료', 'h7'])(
    '%j beside an editor, in no bar, says nothing of the text: an action',
    (label) => {
      expect(isEditorChrome(control({ label }))).toBe(false);
    },
  );

  it('a control in a bar named toolbar, menu bar or status bar beside an editor is chrome, whatever it says; away from an editor it is an action', () => {
    expect(isEditorChrome(control({ label: 'Decrease Level', inNamedBar: true }))).toBe(true);
    expect(isEditorChrome(control({ label: 'Decrease Level', inNamedBar: true, ...away }))).toBe(false);
  });

  it('a toggle, a toolbar or menu by role, and known editor chrome are chrome anywhere', () => {
    expect(isEditorChrome(control({ label: 'Reply', knownChrome: true, ...away }))).toBe(true);
  });

  it('a control inside the editable text is chrome, whatever it says', () => {
    expect(isEditorChrome(control({ label: 'Publish', insideEditable: true, leavesPage: true, ...away }))).toBe(true);
  });

  it.each(PAGE_ACTIONS)('%j acts on the page: an action in any bar, beside any editor', (label) => {
    expect(isEditorChrome(control({ label, knownChrome: true, inNamedBar: true }))).toBe(false);
  });

  it('a control that submits its form or goes to another page is an action, whatever it says', () => {
    expect(isEditorChrome(control({ label: 'Bold', leavesPage: true, knownChrome: true, inNamedBar: true }))).toBe(false);
  });

  it('where it sits is read only when a rule needs it', () => {
    let asked = 0;
    const besideEditor = () => {
      asked += 1;
      return true;
    };
    for (const label of ['Publish', 'Reply']) isEditorChrome(control({ label, besideEditor }));
    expect(asked).toBe(0);
    isEditorChrome(control({ label: 'Bold', besideEditor }));
    expect(asked).toBe(1);
  });
});

describe('editor chrome, on generated controls', () => {
  const generated = fc.record({
    label: fc.oneof(fc.constantFrom(...FORMATTING, ...PAGE_ACTIONS, 'body', 'h2', 'Reply'), fc.string({ maxLength: 20 })),
    hints: fc.oneof(fc.constant(' '), fc.constantFrom(...FORMATTING.map((word) => `${word} `))),
    insideEditable: fc.boolean(),
    knownChrome: fc.boolean(),
    inNamedBar: fc.boolean(),
    leavesPage: fc.boolean(),
    beside: fc.boolean(),
  });

  it('away from every editor, outside the text, in no known chrome, nothing is chrome', () => {
    fc.assert(
      fc.property(generated, ({ beside: _, ...rest }) => {
        expect(isEditorChrome({ ...rest, insideEditable: false, knownChrome: false, besideEditor: () => false })).toBe(false);
      }),
    );
  });

  it('a control that submits a form or says it publishes, saves or posts is always an action, unless it sits in the text itself', () => {
    fc.assert(
      fc.property(generated, fc.constantFrom(...PAGE_ACTIONS), ({ beside, ...rest }, word) => {
        const besideEditor = () => beside;
        expect(isEditorChrome({ ...rest, insideEditable: false, leavesPage: true, besideEditor })).toBe(false);
        expect(isEditorChrome({ ...rest, label: `${rest.label} ${word}`, insideEditable: false, besideEditor })).toBe(false);
      }),
    );
  });
});
