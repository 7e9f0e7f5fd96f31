/**
 * Formatting controls are not actions: bold, italic, heading and list buttons in an editor's
 * toolbar change how text looks, send nothing and need nobody's approval. They are left out of the
 * actions the generic adapter lists (an agent writes structure with `format: "markdown"` instead).
 */

/** Toolbars and menus by role, and the chrome of the editor libraries Tether knows. */
const FORMATTING_CONTAINERS = [
  '[role="toolbar"]',
  '[role="menubar"]',
  '[role="menu"]',
  '.ql-toolbar',
  '.ck-toolbar',
  '.ck-body-wrapper',
  '.tox-editor-header',
  '.tox-statusbar',
  '.se-toolbar',
].join(', ');

export function isFormattingControl(element: Element): boolean {
  // A toggle (pressed or not) switches a format on and off; it never sends anything.
  if (element.hasAttribute('aria-pressed')) return true;
  if (element.closest(FORMATTING_CONTAINERS)) return true;
  // Buttons inside the editing area itself (widgets, code-block language pickers) belong to the editor.
  return element.parentElement?.isContentEditable === true;
}
