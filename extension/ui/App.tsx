/** The person's Tether: approvals first, then Now, Workspaces, Journal and Connection. */
import { useRef, useState } from 'preact/hooks';
import { ApprovalsPanel } from './ApprovalsPanel.tsx';
import { ConnectionView } from './ConnectionView.tsx';
import { DeparturesPanel } from './DeparturesPanel.tsx';
import { headline, headlineClass } from './connectionHeadline.ts';
import { t } from './i18n.ts';
import { JournalView } from './JournalView.tsx';
import { NowView } from './NowView.tsx';
import { QuestionsPanel } from './QuestionsPanel.tsx';
import { ProblemLine } from './useAction.tsx';
import { useUiState } from './useUiState.ts';
import { WorkspacesView } from './WorkspacesView.tsx';

const VIEWS = ['now', 'workspaces', 'journal', 'connection'] as const;
type View = (typeof VIEWS)[number];

export function App({ initialView = 'now' }: { initialView?: View }) {
  const { state, problem, refresh } = useUiState();
  const [view, setView] = useState<View>(initialView);
  const tabRefs = useRef<Array<HTMLButtonElement | null>>([]);
  const onChanged = () => void refresh();

  const onTabKey = (event: KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' ? 1 : event.key === 'ArrowLeft' ? -1 : 0;
    if (step === 0) return;
    event.preventDefault();
    const next = (index + step + VIEWS.length) % VIEWS.length;
    setView(VIEWS[next] ?? 'now');
    tabRefs.current[next]?.focus();
  };

  if (!state) {
    return (
      <main class="app">
        <p role="status">{problem ?? t('loading')}</p>
      </main>
    );
  }
  return (
    <main class="app">
      <header class="app-header">
        <h1>Tether</h1>
        <span class={`dot dot-${headlineClass(state.connection)}`} role="img" aria-label={headline(state.connection)} title={headline(state.connection)} />
      </header>
      <ProblemLine />
      <QuestionsPanel questions={state.questions} onAnswered={onChanged} />
      <ApprovalsPanel approvals={state.approvals} onDecided={onChanged} />
      <DeparturesPanel departures={state.departures} onChanged={onChanged} />
      <nav class="view-tabs" role="tablist" aria-label={t('viewsLabel')}>
        {VIEWS.map((name, index) => (
          <button
            key={name}
            type="button"
            role="tab"
            id={`tab-${name}`}
            aria-selected={view === name}
            aria-controls={`view-${name}`}
            tabIndex={view === name ? 0 : -1}
            ref={(element) => {
              tabRefs.current[index] = element;
            }}
            onClick={() => setView(name)}
            onKeyDown={(event) => onTabKey(event, index)}
          >
            {t(`view_${name}`)}
            {name === 'now' && state.approvals.length + state.questions.length > 0 ? ` (${state.approvals.length + state.questions.length})` : ''}
          </button>
        ))}
      </nav>
      <section class="view" role="tabpanel" id={`view-${view}`} aria-labelledby={`tab-${view}`}>
        {view === 'now' ? <NowView state={state} onChanged={onChanged} /> : null}
        {view === 'workspaces' ? <WorkspacesView state={state} onChanged={onChanged} /> : null}
        {view === 'journal' ? <JournalView state={state} /> : null}
        {view === 'connection' ? <ConnectionView state={state} onChanged={onChanged} /> : null}
      </section>
    </main>
  );
}
