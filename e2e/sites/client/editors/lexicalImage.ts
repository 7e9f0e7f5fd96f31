/**
 * Images in the Lexical page as Lexical's playground sets them up (lexical/packages/
 * lexical-playground: nodes/ImageNode.tsx, plugins/ImagesPlugin and DragDropPastePlugin, checked
 * 2026-12-01 against lexical 0.52.0), without React: an inline ImageNode (a DecoratorNode that
 * renders its <img> itself, imports and exports <img src alt>), an INSERT_IMAGE command, and a
 * DRAG_DROP_PASTE handler (@lexical/rich-text dispatches it for a paste or drop of files without
 * text) that — where the playground reads the file as a data: URL — uploads it to the site
 * (field `file`) and inserts the image at the address the site answers, its alt the file's name
 * as the playground's. A failed upload inserts nothing. `?noupload`: the playground's data: URL.
 */
import { DRAG_DROP_PASTE } from '@lexical/rich-text';
import { $wrapNodeInElement, mergeRegister } from '@lexical/utils';
import {
  $applyNodeReplacement,
  $createParagraphNode,
  $insertNodes,
  $isRootOrShadowRoot,
  COMMAND_PRIORITY_EDITOR,
  COMMAND_PRIORITY_LOW,
  createCommand,
  DecoratorNode,
  type DOMConversionMap,
  type DOMExportOutput,
  type LexicalCommand,
  type LexicalEditor,
  type NodeKey,
  type SerializedLexicalNode,
  type Spread,
} from 'lexical';

type SerializedImageNode = Spread<{ src: string; altText: string }, SerializedLexicalNode>;

export class ImageNode extends DecoratorNode<null> {
  __src: string;
  __altText: string;

  static override getType(): string {
    return 'image';
  }

  static override clone(node: ImageNode): ImageNode {
    return new ImageNode(node.__src, node.__altText, node.__key);
  }

  static override importJSON(json: SerializedImageNode): ImageNode {
    return $createImageNode({ src: json.src, altText: json.altText });
  }

  static override importDOM(): DOMConversionMap | null {
    return {
      img: () => ({
        conversion: (element) => {
          const img = element as HTMLImageElement;
          return { node: $createImageNode({ src: img.getAttribute('src') ?? '', altText: img.getAttribute('alt') ?? '' }) };
        },
        priority: 0,
      }),
    };
  }

  constructor(src: string, altText: string, key?: NodeKey) {
    super(key);
    this.__src = src;
    this.__altText = altText;
  }

  override exportJSON(): SerializedImageNode {
    return { ...super.exportJSON(), type: 'image', version: 1, src: this.__src, altText: this.__altText };
  }

  override exportDOM(): DOMExportOutput {
    const img = document.createElement('img');
    img.setAttribute('src', this.__src);
    img.setAttribute('alt', this.__altText);
    return { element: img };
  }

  override createDOM(): HTMLElement {
    const span = document.createElement('span');
    span.className = 'editor-image';
    const img = document.createElement('img');
    img.src = this.__src;
    img.alt = this.__altText;
    img.style.maxWidth = '100%';
    span.append(img);
    return span;
  }

  override updateDOM(): false {
    return false;
  }

  override isInline(): boolean {
    return true;
  }

  override getTextContent(): string {
    return '';
  }

  override decorate(): null {
    return null;
  }
}

export function $createImageNode({ src, altText }: { src: string; altText: string }): ImageNode {
  return $applyNodeReplacement(new ImageNode(src, altText));
}

export const INSERT_IMAGE_COMMAND: LexicalCommand<{ src: string; altText: string }> = createCommand('INSERT_IMAGE_COMMAND');

const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'];

async function storedAt(file: File, embedOnly: boolean): Promise<string | null> {
  if (embedOnly) {
    return new Promise((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.onerror = () => resolve(null);
      reader.readAsDataURL(file);
    });
  }
  const form = new FormData();
  form.append('file', file, file.name);
  const answer = await fetch('/api/uploads', { method: 'POST', body: form, credentials: 'same-origin' }).catch(() => null);
  const body = answer?.ok ? ((await answer.json().catch(() => null)) as { url?: unknown } | null) : null;
  if (typeof body?.url === 'string') return body.url;
  document.body.dataset.uploadError = `the upload failed (${answer?.status ?? 'no answer'})`;
  return null;
}

/** The ImagesPlugin's insert command and the DragDropPastePlugin's upload, registered on the editor. */
export function registerImages(editor: LexicalEditor, embedOnly: boolean): () => void {
  return mergeRegister(
    editor.registerCommand(
      INSERT_IMAGE_COMMAND,
      (payload) => {
        const node = $createImageNode(payload);
        $insertNodes([node]);
        if ($isRootOrShadowRoot(node.getParentOrThrow())) $wrapNodeInElement(node, $createParagraphNode).selectEnd();
        return true;
      },
      COMMAND_PRIORITY_EDITOR,
    ),
    editor.registerCommand(
      DRAG_DROP_PASTE,
      (files) => {
        void (async () => {
          for (const file of files) {
            if (!IMAGE_TYPES.includes(file.type)) continue;
            const src = await storedAt(file, embedOnly);
            if (src) editor.dispatchCommand(INSERT_IMAGE_COMMAND, { src, altText: file.name });
          }
        })();
        return true;
      },
      COMMAND_PRIORITY_LOW,
    ),
  );
}
