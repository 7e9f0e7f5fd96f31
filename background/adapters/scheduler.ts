/**
 * Scheduled acts: an `act` with a time runs later through `chrome.alarms`, which outlive the
 * worker. The act and its binding are kept in storage.local; the alarm only names it. When it
 * fires, the binding is revalidated like any act: a tab that was navigated, closed or left the
 * workspace is refused with `context_changed` and journaled — never retargeted.
 */
import browser, { type Alarms } from 'webextension-polyfill';
import { failure, tetherError, type Outcome } from '../../shared/errors.ts';
import type { JournalRecord } from '../../shared/model/journalRecord.ts';
import { siteLabel } from '../../shared/model/matchSite.ts';
import type { JournalSink } from '../state/journal.ts';
import { endProgram } from '../core/programs.ts';
import { keepScheduledAct } from '../core/scheduledAct.ts';
import { RequestTrace } from '../core/requestTrace.ts';
import { runAct, type ActInput } from '../tools/runAct.ts';
import { localStore, ready, type ScheduledAct } from '../state/store.ts';
import type { ToolContext } from '../toolContext.ts';

const ALARM_PREFIX = 'tether.act:';

export async function scheduleAct(input: ActInput, dueAt: number, now: number): Promise<ScheduledAct> {
  const scheduled = await keepScheduledAct(localStore, input, dueAt, now);
  await browser.alarms.create(`${ALARM_PREFIX}${scheduled.id}`, { when: dueAt });
  return scheduled;
}

export async function cancelScheduled(id: string): Promise<void> {
  const scheduled = localStore.getState().scheduled[id];
  await browser.alarms.clear(`${ALARM_PREFIX}${id}`);
  await localStore.setState((state) => {
    const { [id]: _cancelled, ...rest } = state.scheduled;
    return { scheduled: rest };
  });
  if (scheduled) await endProgram(localStore, scheduled.programId);
}

async function runScheduled(context: ToolContext, id: string, journal: JournalSink, onRecorded: (record: JournalRecord) => void): Promise<void> {
  await ready();
  const scheduled = localStore.getState().scheduled[id];
  if (!scheduled) return;
  // Taken off the list before it runs, so a second alarm or a restart can never run it twice.
  await localStore.setState((state) => {
    const { [id]: _due, ...rest } = state.scheduled;
    return { scheduled: rest };
  });
  const trace = new RequestTrace('act', 'schedule', { scheduled: id, requestId: scheduled.requestId, plan: scheduled.plan }, undefined);
  trace.profileId = scheduled.binding.profileId;
  // The agent that scheduled it, as the journal names it (an act scheduled before agents had names: none).
  if (scheduled.agent) trace.agent = scheduled.agent;
  trace.workspaceId = scheduled.workspaceId;
  trace.requestId = scheduled.requestId;
  trace.targets = [
    {
      tabId: scheduled.binding.tabId,
      site: siteLabel(scheduled.binding.url),
      title: scheduled.binding.title,
      account: scheduled.binding.account,
      role: 'write',
    },
  ];
  trace.point('prepare');
  trace.point('decide');
  let outcome: Outcome<unknown>;
  const input = {
    handle: `scheduled:${id}`,
    binding: scheduled.binding,
    plan: scheduled.plan,
    inspected: scheduled.inspected,
    // Stored before element binding existed: unknown identity, so writes and clicks are refused.
    elements: scheduled.elements ?? {},
    pins: scheduled.pins ?? [],
    requestId: scheduled.requestId,
    mayPublish: scheduled.mayPublish === true,
    // It holds its target itself (until now): only another agent's live hold stands in its way.
    ...(scheduled.agent ? { agent: scheduled.agent } : {}),
  };
  try {
    // One act at a time per tab, scheduled ones included.
    outcome = context.reservations.reserve(scheduled.binding.tabId, scheduled.requestId)
      ? await runAct(context, input, trace).finally(() => context.reservations.release(scheduled.binding.tabId, scheduled.requestId))
      : failure(tetherError('target_busy', 'Another act was running on this tab when the scheduled act was due.', { tabId: scheduled.binding.tabId }));
  } finally {
    await endProgram(localStore, scheduled.programId);
  }
  trace.point('record');
  const record = trace.toRecord(outcome);
  try {
    await journal.save(record);
    onRecorded(record);
  } catch {
    // Nobody waits for this answer; the person's panel shows the program gone either way.
  }
}

export function onSchedulerAlarm(context: ToolContext, journal: JournalSink, onRecorded: (record: JournalRecord) => void) {
  return (alarm: Alarms.Alarm): Promise<void> | undefined => {
    if (!alarm.name.startsWith(ALARM_PREFIX)) return undefined;
    return runScheduled(context, alarm.name.slice(ALARM_PREFIX.length), journal, onRecorded);
  };
}

/** After a browser restart alarms may have fired while nothing ran; due acts run (and are refused) now. */
export async function catchUpScheduled(context: ToolContext, journal: JournalSink, onRecorded: (record: JournalRecord) => void): Promise<void> {
  await ready();
  const now = Date.now();
  const alarms = await browser.alarms.getAll();
  for (const scheduled of Object.values(localStore.getState().scheduled)) {
    const hasAlarm = alarms.some((alarm) => alarm.name === `${ALARM_PREFIX}${scheduled.id}`);
    if (!hasAlarm && scheduled.dueAt <= now) await runScheduled(context, scheduled.id, journal, onRecorded);
    else if (!hasAlarm) await browser.alarms.create(`${ALARM_PREFIX}${scheduled.id}`, { when: scheduled.dueAt });
  }
}
