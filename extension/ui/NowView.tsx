/**
 * Now: three different "current" things, kept visibly apart — the tab the person is looking at,
 * the tab a request would default to in each shared workspace, and the targets programs hold —
 * plus what agents asked for recently, in words.
 */
import { useEffect, useState } from 'preact/hooks';
import { agentWords } from '../../shared/agent/agentIdentity.ts';
import type { JournalRecord } from '../../shared/model/journalRecord.ts';
import type { UiState, UiTab } from '../../shared/extension/uiProtocol.ts';
import { ask, onUiEvent } from './api.ts';
import { formatDateTime, t } from './i18n.ts';
import { RecordLine } from './RecordLine.tsx';
import { useAction } from './useAction.tsx';

/** An adapter's name in the person's language ("Naver Blog", "네이버 블로그"), or its id. */
function adapterName(id: string): string {
  const key = `adapterName_${id.replace(/-/g, '_')}`;
  const name = t(key);
  return name === key ? id : name;
}

/** Which of Tether's readers read the page: a site's adapter, or the generic page model (and why). */
function ReadBy({ tab }: { tab: UiTab }) {
  if (tab.adapter === null) return <p class="read-by hint">{t('readByNotYet')}</p>;
  const sentence =
    tab.adapter === 'generic'
      ? t(tab.adapterProblem ? 'readByGenericFallback' : 'readByGeneric')
      : t(tab.adapterProblem ? 'readByAdapterPlus' : 'readByAdapter', adapterName(tab.adapter));
  return (
    <div class="read-by">
      <p>{sentence}</p>
      {tab.adapterProblem ? <p class="hint">{tab.adapterProblem}</p> : null}
    </div>
  );
}

export function NowView({ state, onChanged }: { state: UiState; onChanged(): void }) {
  const [recent, setRecent] = useState<JournalRecord[]>([]);
  const run = useAction();
  useEffect(() => {
    const load = async () => {
      const answer = await ask({ type: 'journal.list', limit: 6 });
      if (answer.ok) setRecent(answer.value);
    };
    void load();
    return onUiEvent((type) => {
      if (type === 'journal.changed') void load();
    });
  }, []);

  const view = state.view;
  const viewWorkspace = view ? state.workspaces.find((workspace) => workspace.tabIds.includes(view.tabId)) : undefined;
  const shared = state.workspaces.filter((workspace) => workspace.shared);
  const endProgram = async (programId: string) => {
    await run({ type: 'program.end', programId });
    onChanged();
  };
  const releaseHold = async (tabId: number) => {
    await run({ type: 'hold.release', tabId });
    onChanged();
  };

  return (
    <div class="now">
      <section class="current current-view" aria-labelledby="view-heading">
        <h2 id="view-heading">{t('viewHeading')}</h2>
        <p class="hint">{t('viewHint')}</p>
        {view ? (
          <>
            <p>
              <strong>{view.title || view.url}</strong> <span class="site">{view.origin ? view.site : t('browserPage')}</span>
              <br />
              {viewWorkspace ? t('viewInWorkspace', viewWorkspace.name) : t('viewOutside')}
            </p>
            {view.origin ? <ReadBy tab={view} /> : null}
          </>
        ) : (
          <p>{t('nothing')}</p>
        )}
      </section>

      <section class="current current-request" aria-labelledby="request-heading">
        <h2 id="request-heading">{t('requestTabHeading')}</h2>
        <p class="hint">{t('requestTabHint')}</p>
        {shared.length === 0 ? <p>{t('noSharedWorkspaces')}</p> : null}
        <ul class="plain">
          {shared.map((workspace) => {
            const tab = workspace.tabs.find((item) => item.tabId === workspace.requestTimeTab);
            return (
              <li key={workspace.id}>
                <span class="ws-name">{workspace.name}</span>: {tab ? `${tab.title} (${tab.site})` : t('noActiveTab')}
              </li>
            );
          })}
        </ul>
      </section>

      <section class="current current-holds" aria-labelledby="holds-heading">
        <h2 id="holds-heading">{t('holdsHeading')}</h2>
        <p class="hint">{t('holdsHint')}</p>
        {state.holds.length === 0 ? <p>{t('noHolds')}</p> : null}
        <ul class="plain">
          {state.holds.map((hold) => (
            <li key={hold.tabId} class="hold">
              <span class="hold-line">{t('holdLine', [agentWords(hold.agent), hold.title || hold.site, hold.site, formatDateTime(hold.since)])}</span>
              {hold.task !== undefined ? <span class="hint"> {t('holdTask', hold.task)}</span> : null}
              <button
                type="button"
                class="small"
                onClick={() => void releaseHold(hold.tabId)}
                aria-label={t('releaseHoldNamed', [hold.title || hold.site, agentWords(hold.agent)])}
              >
                {t('releaseHold')}
              </button>
            </li>
          ))}
        </ul>
      </section>

      <section class="current current-programs" aria-labelledby="programs-heading">
        <h2 id="programs-heading">{t('programsHeading')}</h2>
        <p class="hint">{t('programsHint')}</p>
        {state.programs.length === 0 ? <p>{t('noPrograms')}</p> : null}
        <ul class="plain">
          {state.programs.map((program) => {
            const workspace = state.workspaces.find((item) => item.id === program.workspaceId);
            const stillThere = workspace?.tabs.some((tab) => tab.tabId === program.target.tabId && tab.url === program.target.url);
            return (
              <li key={program.id} class="program">
                <span class="program-label">{program.label}</span> —{' '}
                {program.status === 'scheduled' && program.dueAt !== undefined ? t('programScheduled', formatDateTime(program.dueAt)) : t('programRunning')}
                {program.agent ? ` · ${t('programScheduledBy', agentWords(program.agent))}` : ''}
                <br />
                {t('programWrites', [program.target.title, new URL(program.target.url).host, program.target.account ?? t('accountUnknown')])}
                {stillThere ? null : <span class="warning"> {t('programTargetChanged')}</span>}
                <button type="button" class="small" onClick={() => void endProgram(program.id)} aria-label={t('endProgramNamed', program.label)}>
                  {t('endProgram')}
                </button>
              </li>
            );
          })}
        </ul>
      </section>

      <section aria-labelledby="recent-heading">
        <h2 id="recent-heading">{t('recentHeading')}</h2>
        {recent.length === 0 ? <p>{t('noRequests')}</p> : null}
        <ul class="records">
          {recent.map((record) => (
            <RecordLine record={record} key={record.id} />
          ))}
        </ul>
      </section>
    </div>
  );
}
