/**
 * Asking the person when Tether cannot decide: a resolve that matched several tabs and said `ask`
 * waits here for the person to pick one of the candidates in the panel, or decline, or for its
 * time to run out. Like approvals: the question is kept in the session (the panel lists it, the
 * badge counts it), and only the request that asked waits for its answer — the answer goes back
 * on that request, to the agent that asked, and nowhere else.
 *
 * A pick must be one of the question's own candidates; an answer to a question no longer waiting
 * (answered, timed out, its worker restarted) changes nothing.
 */
import { newId } from '../../shared/ids.ts';
import type { Question, QuestionAnswer, QuestionRequest } from '../../shared/model/question.ts';
import type { SessionState } from '../state/store.ts';
import type { StateAccess } from './contracts.ts';

const KEEP_ALIVE_EVERY_MS = 20_000;

export interface QuestionDeps {
  session: StateAccess<SessionState>;
  /** The pending questions changed: the badge and open pages follow. */
  changed(): Promise<void>;
  /** Called while a request waits, so the browser does not stop the worker meanwhile. */
  keepAlive(): void;
  clock(): number;
}

export interface Questions {
  ask(request: QuestionRequest, timeoutMs: number): Promise<QuestionAnswer>;
  /** The person's answer: a candidate's tab id, or null to decline. False when the question is not waiting or the tab is not a candidate. */
  answer(id: string, tabId: number | null): Promise<boolean>;
}

function drop(questions: Record<string, Question>, id: string): Record<string, Question> {
  const { [id]: _gone, ...rest } = questions;
  return rest;
}

export function createQuestions(deps: QuestionDeps): Questions {
  const { session } = deps;
  const waiters = new Map<string, (answer: QuestionAnswer) => void>();
  return {
    async ask(request, timeoutMs) {
      const now = deps.clock();
      const question: Question = { ...request, id: newId('qu', 9), createdAt: now, expiresAt: now + timeoutMs, decision: 'pending' };
      // Waiting before it is shown: an answer the moment the panel shows it reaches this request.
      let timer: ReturnType<typeof setTimeout> | undefined;
      const answered = new Promise<QuestionAnswer>((resolve) => {
        waiters.set(question.id, resolve);
        timer = setTimeout(() => resolve({ kind: 'timeout' }), timeoutMs);
      });
      // Questions nobody waits for any more (a worker stopped while one waited) are dropped with the next one.
      await session.setState((state) => ({
        questions: {
          ...Object.fromEntries(
            Object.entries(state.questions).filter(([, item]) => item.decision === 'pending' && item.expiresAt > now && waiters.has(item.id)),
          ),
          [question.id]: question,
        },
      }));
      await deps.changed();
      const keepAlive = setInterval(() => deps.keepAlive(), KEEP_ALIVE_EVERY_MS);
      const answer = await answered;
      clearInterval(keepAlive);
      clearTimeout(timer);
      waiters.delete(question.id);
      await session.setState((state) => ({ questions: drop(state.questions, question.id) }));
      await deps.changed();
      return answer;
    },

    async answer(id, tabId) {
      const question = session.getState().questions[id];
      const waiter = waiters.get(id);
      if (!question || !waiter || question.decision !== 'pending' || question.expiresAt <= deps.clock()) return false;
      if (tabId !== null && !question.candidates.some((candidate) => candidate.tabId === tabId)) return false;
      const answered: Question = tabId === null ? { ...question, decision: 'declined' } : { ...question, decision: 'picked', picked: tabId };
      await session.setState((state) => ({ questions: { ...state.questions, [id]: answered } }));
      waiter(tabId === null ? { kind: 'declined' } : { kind: 'picked', tabId });
      return true;
    },
  };
}
