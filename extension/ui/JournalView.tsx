/**
 * The journal: every agent request with its outcome (done, refused with its code, rolled back,
 * scheduled), filtered by workspace, a detail view of steps and observations, export as JSON Lines.
 */
import { useEffect, useState } from 'preact/hooks';
import { agentWords } from '../../shared/agent/agentIdentity.ts';
import type { JournalRecord } from '../../shared/model/journalRecord.ts';
import type { UiState } from '../../shared/extension/uiProtocol.ts';
import { ask, onUiEvent } from './api.ts';
import { formatDateTime, t } from './i18n.ts';
import { outcomeLabel, RecordLine, recordSentence } from './RecordLine.tsx';
import { useAction } from './useAction.tsx';

function RecordDetail({ record, onClose }: { record: JournalRecord; onClose(): void }) {
  return (
    <section class="record-detail" aria-labelledby="detail-heading">
      <h3 id="detail-heading">
        {t(`tool_${record.tool}`)} · {outcomeLabel(record)}
      </h3>
      {/* A refusal's message is shown once, with its code, below. */}
      {record.error ? null : <p>{recordSentence(record)}</p>}
      <dl class="facts">
        <dt>{t('when')}</dt>
        <dd>{formatDateTime(record.at)}</dd>
        <dt>{t('via')}</dt>
        <dd>{t(`via_${record.via}`)}</dd>
        {record.agent ? (
          <>
            <dt>{t('agent')}</dt>
            <dd>{agentWords(record.agent)}</dd>
          </>
        ) : null}
        {record.requestId ? (
          <>
            <dt>{t('requestId')}</dt>
            <dd>
              <code>{record.requestId}</code>
            </dd>
          </>
        ) : null}
        {(record.targets ?? []).map((target) => (
          <>
            <dt>{target.role === 'write' ? t('writeTarget') : t('reference')}</dt>
            <dd>
              {target.title} ({target.site}){target.account ? ` · ${target.account}` : ''}
            </dd>
          </>
        ))}
        {record.error ? (
          <>
            <dt>{t('error')}</dt>
            <dd>
              <code>{record.error.code}</code> {record.error.message}
            </dd>
          </>
        ) : null}
        <dt>{t('lifecycle')}</dt>
        <dd>
          {Object.entries(record.lifecycle)
            .map(([point, ms]) => `${t(`point_${point}`)} ${ms} ms`)
            .join(' → ')}
        </dd>
      </dl>
      {record.steps && record.steps.length > 0 ? (
        <>
          <h4>{t('steps')}</h4>
          <pre class="json">{JSON.stringify(record.steps, null, 2)}</pre>
        </>
      ) : null}
      {record.observation !== undefined || record.decision !== undefined ? (
        <>
          <h4>{t('observations')}</h4>
          <pre class="json">{JSON.stringify({ decision: record.decision, observation: record.observation }, null, 2)}</pre>
        </>
      ) : null}
      <button type="button" onClick={onClose}>
        {t('back')}
      </button>
    </section>
  );
}

export function JournalView({ state }: { state: UiState }) {
  const [workspaceId, setWorkspaceId] = useState('');
  const [records, setRecords] = useState<JournalRecord[]>([]);
  const [open, setOpen] = useState<JournalRecord | null>(null);
  const [exported, setExported] = useState<string | null>(null);
  const run = useAction();

  useEffect(() => {
    const load = async () => {
      const answer = await ask({ type: 'journal.list', limit: 100, ...(workspaceId ? { workspaceId } : {}) });
      if (answer.ok) setRecords(answer.value);
    };
    void load();
    return onUiEvent((type) => {
      if (type === 'journal.changed') void load();
    });
  }, [workspaceId]);

  const exportJsonl = async () => {
    const answer = await run({ type: 'journal.export' });
    if (!answer.ok) return;
    const url = URL.createObjectURL(new Blob([answer.value.jsonl], { type: 'application/x-ndjson' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `tether-journal-${new Date().toISOString().slice(0, 10)}.jsonl`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
    setExported(t('exported', String(answer.value.count)));
  };

  if (open) return <RecordDetail record={open} onClose={() => setOpen(null)} />;
  return (
    <div class="journal">
      <div class="journal-tools">
        <label class="field">
          <span>{t('filterWorkspace')}</span>
          <select value={workspaceId} onChange={(event) => setWorkspaceId(event.currentTarget.value)}>
            <option value="">{t('allWorkspaces')}</option>
            {state.workspaces.map((workspace) => (
              <option key={workspace.id} value={workspace.id}>
                {workspace.name}
              </option>
            ))}
          </select>
        </label>
        <button type="button" onClick={() => void exportJsonl()}>
          {t('exportJsonl')}
        </button>
      </div>
      {exported ? <p role="status">{exported}</p> : null}
      {records.length === 0 ? <p>{t('noRequests')}</p> : null}
      <ul class="records">
        {records.map((record) => (
          <RecordLine key={record.id} record={record} onOpen={setOpen} />
        ))}
      </ul>
    </div>
  );
}
