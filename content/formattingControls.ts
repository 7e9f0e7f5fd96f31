/**
 * Formatting controls are not actions: bold, italic, heading and list buttons in an editor's
 * toolbar change how text looks, send nothing and need nobody's approval. They are left out of the
 * actions the generic adapter lists (an agent writes structure with `format: "markdown"` instead).
 */
import { EDITOR_CHROME } from './editorFamily.ts';

/** Toolbars and menus by role, and the chrome of the editor families Tether knows (their descriptors' `chrome`). */
const FORMATTING_CONTAINERS = `[role="toolbar"], [role="menubar"], [role="menu"], ${EDITOR_CHROME}`;

export function isFormattingControl(element: Element): boolean {
  // A toggle (pressed or not) switches a format on and off; it never sends anything.
  if (element.hasAttribute('aria-pressed')) return true;
  if (element.closest(FORMATTING_CONTAINERS)) return true;
  // Buttons inside the editing area itself (widgets, code-block language pickers) belong to the editor.
  return element.parentElement?.isContentEditable === true;
}
