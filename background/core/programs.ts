/**
 * Programs: ongoing or scheduled tasks, each with its own write target fixed when it starts.
 * The person's view moving elsewhere never moves a program's target (only a request naming
 * another destination, or the person ending the program, does).
 */
import { newId } from '../../shared/ids.ts';
import type { Program, TargetBinding } from '../../shared/model/targetModel.ts';
import type { LocalState } from '../state/store.ts';
import type { StateAccess } from './contracts.ts';

export function findProgram(state: LocalState, workspaceId: string, label: string): Program | null {
  return Object.values(state.programs).find((program) => program.workspaceId === workspaceId && program.label === label) ?? null;
}

export function programsOf(state: LocalState, workspaceId: string): Program[] {
  return Object.values(state.programs).filter((program) => program.workspaceId === workspaceId);
}

export async function startProgram(
  local: StateAccess<LocalState>,
  label: string,
  target: TargetBinding,
  status: Program['status'],
  now: number,
  dueAt?: number,
): Promise<Program> {
  const program: Program = { id: newId('pg'), label, workspaceId: target.workspaceId, target, status, createdAt: now };
  if (dueAt !== undefined) program.dueAt = dueAt;
  await local.setState((state) => ({ programs: { ...state.programs, [program.id]: program } }));
  return program;
}

export async function endProgram(local: StateAccess<LocalState>, programId: string): Promise<void> {
  await local.setState((state) => {
    const { [programId]: _ended, ...rest } = state.programs;
    return { programs: rest };
  });
}
