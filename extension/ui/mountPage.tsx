/** Starts one of Tether's pages: its language, then the page inside its problem line's holder. */
import { render, type ComponentChildren } from 'preact';
import { applyDocumentLanguage } from './i18n.ts';
import { ActionProblems } from './useAction.tsx';

export function mountPage(page: ComponentChildren): void {
  applyDocumentLanguage();
  const root = document.getElementById('app');
  if (root) render(<ActionProblems>{page}</ActionProblems>, root);
}
