/**
 * A scheduled act as it is kept: its program started (so the person sees it waiting) and the act,
 * with its binding, stored in local state. The browser's alarm that names it is the caller's part
 * (adapters/scheduler.ts); the tests' fake context keeps it the same way.
 */
import { newId } from '../../shared/ids.ts';
import type { LocalState, ScheduledAct } from '../state/store.ts';
import type { StateAccess } from '../toolContext.ts';
import type { ActInput } from '../tools/runAct.ts';
import { startProgram } from './programs.ts';

export async function keepScheduledAct(local: StateAccess<LocalState>, input: ActInput, dueAt: number, now: number): Promise<ScheduledAct> {
  const program = await startProgram(local, `scheduled ${new Date(dueAt).toISOString()}`, input.binding, 'scheduled', now, dueAt);
  const scheduled: ScheduledAct = {
    id: newId('sa', 9),
    requestId: input.requestId,
    programId: program.id,
    workspaceId: input.binding.workspaceId,
    binding: input.binding,
    plan: input.plan,
    inspected: input.inspected,
    elements: input.elements,
    pins: input.pins ?? [],
    mayPublish: input.mayPublish === true,
    ...(input.agent ? { agent: input.agent } : {}),
    dueAt,
    createdAt: now,
  };
  await local.setState((state) => ({ scheduled: { ...state.scheduled, [scheduled.id]: scheduled } }));
  return scheduled;
}
