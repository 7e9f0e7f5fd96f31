/**
 * The toolbar popup: the connection, approvals and agents’ questions waiting (so a badge click leads straight to them),
 * and the way into the side panel — or into a tab where side panels do not exist.
 */
import browser from 'webextension-polyfill';
import { ApprovalsPanel } from './ApprovalsPanel.tsx';
import { QuestionsPanel } from './QuestionsPanel.tsx';
import { headline, headlineClass } from './connectionHeadline.ts';
import { t } from './i18n.ts';
import { ProblemLine } from './useAction.tsx';
import { useUiState } from './useUiState.ts';

async function openPanel(): Promise<void> {
  // Firefox's sidebar opens only within the person's click: it is asked first, before any await.
  const sidebar = browser.sidebarAction as typeof browser.sidebarAction | undefined;
  if (sidebar) {
    await sidebar.open();
    window.close();
    return;
  }
  const sidePanel = (globalThis as { chrome?: { sidePanel?: { open(options: { windowId: number }): Promise<void> } } }).chrome?.sidePanel;
  const current = await browser.windows.getCurrent();
  if (sidePanel && current.id !== undefined) {
    await sidePanel.open({ windowId: current.id });
  } else {
    await browser.tabs.create({ url: browser.runtime.getURL('extension/options.html') });
  }
  window.close();
}

export function Popup() {
  const { state, problem, refresh } = useUiState();
  if (!state) return <p role="status">{problem ?? t('loading')}</p>;
  const shared = state.workspaces.filter((workspace) => workspace.shared).length;
  return (
    <main class="popup">
      <header class="app-header">
        <h1>Tether</h1>
        <span class={`dot dot-${headlineClass(state.connection)}`} role="img" aria-label={headline(state.connection)} />
      </header>
      <p role="status">{headline(state.connection)}</p>
      <p>{t('popupShared', String(shared))}</p>
      <ProblemLine />
      <QuestionsPanel questions={state.questions} onAnswered={() => void refresh()} />
      <ApprovalsPanel approvals={state.approvals} onDecided={() => void refresh()} />
      <div class="buttons">
        <button type="button" class="primary" onClick={() => void openPanel()}>
          {t('openPanel')}
        </button>
      </div>
    </main>
  );
}
