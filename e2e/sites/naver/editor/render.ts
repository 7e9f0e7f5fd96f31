/**
 * The fixture's SmartEditor ONE markup, rendered from the document model (model.ts) and nothing
 * else: the editor canvas is a view of the model, so a DOM-only edit lasts until the next render
 * (SOURCES.md, §4). Strings, not DOM: the editor page sets them per component, the fixture server
 * renders published posts (the viewer's markup) with the same code.
 */
import type { Component, NodeStyle, Paragraph, SeDocument, TextNode } from './model.ts';

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[char] ?? char);
}

export type View = 'editor' | 'viewer';

export interface RenderOptions {
  view: View;
  /** The body's placeholder when it is empty (Blog: 글감과 함께…; Cafe: 내용을 입력하세요.). */
  bodyPlaceholder: string;
  /** Default font size of body text: fs15 (JHN, the Cafe markup; CSH says fs19 on its blog). */
  bodySize: string;
}

function sizeClass(style: NodeStyle | undefined, fallback: string, view: View): string {
  const code = style?.fontSizeCode ?? fallback;
  return view === 'editor' ? `se-fs${code.replace(/^fs/, '')}` : `se-fs-${code}`;
}

function familyClass(style: NodeStyle | undefined): string {
  return `se-ff-${style?.fontFamily ?? 'nanumgothic'}`;
}

function inlineHtml(node: TextNode): string {
  // A paragraph's empty node holds a zero-width space in the live editor, so the caret has a line.
  let html = node.value === '' ? '\u200b' : escapeHtml(node.value);
  const style = node.style;
  if (style?.strikethrough) html = `<s>${html}</s>`;
  if (style?.underline) html = `<u>${html}</u>`;
  if (style?.italic) html = `<i>${html}</i>`;
  if (style?.bold) html = `<b>${html}</b>`;
  return html;
}

function nodeHtml(node: TextNode, size: string, options: RenderOptions): string {
  const colour = [
    node.style?.fontColor ? `color: ${node.style.fontColor}` : '',
    node.style?.backgroundColor ? `background-color: ${node.style.backgroundColor}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  const styleAttribute = colour ? ` style="${escapeHtml(colour)}"` : '';
  const classes = `${familyClass(node.style)} ${sizeClass(node.style, size, options.view)}`;
  if (node.link) {
    // In the editor a link is the editor's own span (NBP, JHN measured: no <a> in postwrite); published, an <a>.
    return options.view === 'editor'
      ? `<span class="${classes} se-link __se-node" data-href="${escapeHtml(node.link.url)}"${styleAttribute}>${inlineHtml(node)}</span>`
      : `<a href="${escapeHtml(node.link.url)}" class="se-link" target="_blank"><span class="${classes}"${styleAttribute}>${inlineHtml(node)}</span></a>`;
  }
  return `<span class="${classes} __se-node"${styleAttribute}>${inlineHtml(node)}</span>`;
}

function paragraphHtml(paragraph: Paragraph, size: string, options: RenderOptions, placeholder: string | null): string {
  const align = paragraph.style?.align ?? 'left';
  const empty = paragraph.nodes.every((node) => node.value === '');
  const nodes = paragraph.nodes.map((node) => nodeHtml(node, size, options)).join('');
  const hint =
    placeholder !== null && empty && options.view === 'editor'
      ? `<span class="se-placeholder __se_placeholder se-ff-nanumgothic ${sizeClass(undefined, size, 'editor')}">${escapeHtml(placeholder)}</span>`
      : '';
  return `<p class="se-text-paragraph se-text-paragraph-align-${align}" id="${escapeHtml(paragraph.id)}">${nodes}${hint}</p>`;
}

/** Paragraphs, list paragraphs grouped into the editor's lists (the viewer's se-text-list markup). */
function paragraphsHtml(paragraphs: Paragraph[], size: string, options: RenderOptions, placeholder: string | null): string {
  let html = '';
  let open: 'bullet' | 'decimal' | null = null;
  paragraphs.forEach((paragraph, index) => {
    const list = paragraph.style?.list?.type ?? null;
    if (open !== list && open !== null) html += open === 'bullet' ? '</ul>' : '</ol>';
    if (list !== null && open !== list)
      html += list === 'bullet' ? '<ul class="se-text-list se-text-list-type-bullet-disc">' : '<ol class="se-text-list se-text-list-type-decimal">';
    open = list;
    const only = paragraphs.length === 1 && index === 0 ? placeholder : null;
    const inner = paragraphHtml(paragraph, size, options, only);
    html += list === null ? inner : `<li class="se-text-list-item">${inner}</li>`;
  });
  if (open !== null) html += open === 'bullet' ? '</ul>' : '</ol>';
  return html;
}

/** The inside of one component's element (the element itself, keyed by the component id, is the page's). */
export function componentInner(component: Component, options: RenderOptions, firstText: boolean): string {
  switch (component['@ctype']) {
    case 'documentTitle':
      return `<div class="se-component-content"><div class="se-section se-section-documentTitle se-l-default"><div class="se-module se-module-text se-title-text">${paragraphsHtml(component.title, 'fs32', options, '제목')}</div></div></div>`;
    case 'text':
      return `<div class="se-component-content"><div class="se-section se-section-text se-l-default"><div class="se-module se-module-text">${paragraphsHtml(component.value, options.bodySize, options, firstText ? options.bodyPlaceholder : null)}</div></div></div>`;
    case 'quotation': {
      const source = component.source ? `<div class="se-module se-module-text se-cite">${paragraphsHtml(component.source, 'fs13', options, null)}</div>` : '';
      return `<div class="se-component-content"><div class="se-section se-section-quotation se-l-${escapeHtml(component.layout)}"><blockquote class="se-quotation-container"><div class="se-module se-module-text se-quote">${paragraphsHtml(component.value, options.bodySize, options, null)}</div>${source}</blockquote></div></div>`;
    }
    case 'image': {
      const caption = component.caption
        ? `<div class="se-module se-module-text se-caption">${paragraphsHtml(component.caption, 'fs13', options, null)}</div>`
        : '';
      return `<div class="se-component-content"><div class="se-section se-section-image se-l-default se-section-align-${escapeHtml(component.align ?? 'center')}"><div class="se-module se-module-image"><a class="se-module-image-link" data-linktype="img"><img src="${escapeHtml(component.src)}" alt="" class="se-image-resource" width="${component.width}" height="${component.height}"></a></div>${caption}</div></div>`;
    }
    case 'horizontalLine':
      return `<div class="se-component-content"><div class="se-section se-section-horizontalLine se-l-${escapeHtml(component.layout)}"><div class="se-module se-module-horizontalLine"><hr class="se-hr"></div></div></div>`;
  }
}

/** The class list of one component's element. */
export function componentClass(component: Component): string {
  return `se-component se-${component['@ctype']} se-l-${component.layout}`;
}

/** `data-a11y-title` on the title and the text components, the anchors JHN measured. */
export function componentTitle(component: Component): string | null {
  if (component['@ctype'] === 'documentTitle') return '제목';
  if (component['@ctype'] === 'text') return '본문';
  if (component['@ctype'] === 'image') return '사진';
  return null;
}

/** The whole document as HTML (the viewer's post page; the editor renders per component). */
export function documentHtml(document: SeDocument, options: RenderOptions, skipTitle = false): string {
  let firstText = true;
  return document.components
    .filter((component) => !(skipTitle && component['@ctype'] === 'documentTitle'))
    .map((component) => {
      const inner = componentInner(component, options, component['@ctype'] === 'text' && firstText);
      if (component['@ctype'] === 'text') firstText = false;
      const a11y = componentTitle(component);
      return `<div class="${componentClass(component)}" id="${escapeHtml(component.id)}"${a11y ? ` data-a11y-title="${a11y}"` : ''}>${inner}</div>`;
    })
    .join('');
}
