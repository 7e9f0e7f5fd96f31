/** One journal record in a line: when, what, the outcome, and the explanation in words. */
import { agentWords } from '../../shared/agent/agentIdentity.ts';
import type { JournalRecord } from '../../shared/model/journalRecord.ts';
import { formatTime, pick, t } from './i18n.ts';

export function outcomeLabel(record: JournalRecord): string {
  if (record.outcome === 'refused') return t('outcomeRefused', record.error?.code ?? '');
  if (record.outcome === 'rolled_back') return t('outcomeRolledBack', record.error?.code ?? '');
  return t(`outcome_${record.outcome}`);
}

export function recordSentence(record: JournalRecord): string {
  if (record.explanation) return pick(record.explanation);
  if (record.error) return record.error.message;
  if (record.tool === 'context') return t('contextSentence');
  const target = record.targets?.[0];
  return target ? `${target.title} (${target.site})` : t(`tool_${record.tool}`);
}

export function RecordLine({ record, onOpen }: { record: JournalRecord; onOpen?: (record: JournalRecord) => void }) {
  const body = (
    <>
      <span class="when">{formatTime(record.at)}</span> <span class="tool">{t(`tool_${record.tool}`)}</span>{' '}
      <span class={`outcome outcome-${record.outcome}`}>{outcomeLabel(record)}</span>
      {record.agent ? <span class="agent-name">{agentWords(record.agent)}</span> : null}
      <span class="sentence">{recordSentence(record)}</span>
    </>
  );
  return (
    <li class="record">
      {onOpen ? (
        <button
          type="button"
          class="record-button"
          onClick={() => onOpen(record)}
          aria-label={`${t(`tool_${record.tool}`)} · ${outcomeLabel(record)}${record.agent ? ` · ${agentWords(record.agent)}` : ''} · ${recordSentence(record)}`}
        >
          {body}
        </button>
      ) : (
        body
      )}
    </li>
  );
}
