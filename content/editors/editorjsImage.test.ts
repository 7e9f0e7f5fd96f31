// @vitest-environment happy-dom
/**
 * Editor.js photo rollback (attacker review, 2026-12-01): the block menu opens for the toolbar's
 * hovered block (Editor.js 2.31.7 settingsTogglerClicked uses `hoveredBlock`; the hover handler is
 * throttled to 20 ms and emits nothing while a block is selected), so Tether's mousemove may not
 * have moved it. BlockSettings.open selects the block it is for: Tether deletes only while its own
 * block is the one selected. A stand-in of the editor's DOM (class names of 2.31.7) whose menu opens
 * for another block.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { ActHost } from '../act/actContract.ts';
import { bindHost } from '../act/actHost.ts';
import type { Editable } from '../editables.ts';
import { editorjsImage } from './editorjsImage.ts';

const SRC = 'https://notes.example/uploads/lake.png';

function host(): ActHost {
  return {
    readPageModel: () => {
      throw new Error('not read here');
    },
    draftState: () => ({ inProgress: false, reasons: [] }),
    rememberTetherWrite: () => undefined,
    personIsTyping: () => null,
    lastEditBy: () => null,
    asTether: (edit) => edit(),
    watchDocument: () => undefined,
    elementId: () => 'id',
    seenElement: () => ({ element: 'id', label: '', fingerprint: 'f' }),
    actPort: () => null,
  };
}

/** The editor's DOM, and a menu that opens for `hovered()` (as Editor.js's does), selecting it. */
function editor(hovered: (blocks: { paragraph: HTMLElement; photo: HTMLElement }) => HTMLElement) {
  document.body.innerHTML = `
    <div class="codex-editor">
      <div class="codex-editor__redactor">
        <div class="ce-block" id="person"><div class="ce-block__content"><div class="ce-paragraph" contenteditable="true">The person’s paragraph</div></div></div>
        <div class="ce-block" id="photo"><div class="ce-block__content"><div class="image-tool image-tool--filled"><img class="image-tool__image-picture" src="${SRC}"><div class="image-tool__caption" contenteditable="true">Lake</div></div></div></div>
      </div>
      <div class="ce-toolbar"><span class="ce-toolbar__settings-btn"></span></div>
    </div>`;
  const root = document.querySelector<HTMLElement>('.codex-editor__redactor') as HTMLElement;
  const paragraph = document.getElementById('person') as HTMLElement;
  const photo = document.getElementById('photo') as HTMLElement;
  const wrapper = document.querySelector('.codex-editor') as HTMLElement;
  let menuFor: HTMLElement | null = null;
  let confirming = false;
  const closeMenu = () => {
    wrapper.querySelector('.ce-popover')?.remove();
    menuFor?.classList.remove('ce-block--selected');
    menuFor = null;
    confirming = false;
  };
  document.querySelector('.ce-toolbar__settings-btn')?.addEventListener('click', () => {
    menuFor = hovered({ paragraph, photo });
    menuFor.classList.add('ce-block--selected');
    const popover = document.createElement('div');
    popover.className = 'ce-popover ce-popover--opened';
    const item = document.createElement('div');
    item.dataset.itemName = 'delete';
    item.addEventListener('click', () => {
      if (!confirming) {
        confirming = true;
        return;
      }
      const gone = menuFor;
      closeMenu();
      gone?.remove();
    });
    popover.append(item);
    wrapper.append(popover);
  });
  document.addEventListener('keydown', (event) => {
    if (event.key === 'Escape') closeMenu();
  });
  const editable = { element: root, doc: document, frame: null } as unknown as Editable;
  return { editable, paragraph, photo, wrapper };
}

beforeEach(() => {
  bindHost(host());
});

describe('Editor.js photo rollback through the block menu', () => {
  it('takes out its own block when the menu opens for it', async () => {
    const { editable, paragraph, photo } = editor(({ photo: ours }) => ours);
    expect(await editorjsImage.remove?.({ editable, src: SRC })).toBe(true);
    expect(photo.isConnected).toBe(false);
    expect(paragraph.isConnected).toBe(true);
  });

  it('a menu opened for another block (the hovered one stayed the person’s): closed, nothing deleted, refused', async () => {
    const { editable, paragraph, photo, wrapper } = editor(({ paragraph: theirs }) => theirs);
    expect(await editorjsImage.remove?.({ editable, src: SRC })).toBe(false);
    expect(paragraph.isConnected).toBe(true);
    expect(photo.isConnected).toBe(true);
    expect(wrapper.querySelector('.ce-popover--opened')).toBeNull();
  });
});
