/**
 * The person's actions (rename, share, a site's policy, approve, …) go through `useAction`: it
 * sends the runtime request and, when the worker answers with an error, says so in one line at the
 * top of the page, in the UI's language. The line lives above the views, not in the card or
 * approval that failed: after a failure the page refreshes, and the thing that failed (a deleted
 * workspace, an approval no longer waiting) is often gone from it.
 */
import { createContext, type ComponentChildren } from 'preact';
import { useCallback, useContext, useState } from 'preact/hooks';
import type { Outcome, TetherError } from '../../shared/errors.ts';
import type { RuntimeAnswers, RuntimeRequest } from '../../shared/extension/uiProtocol.ts';
import { ask } from './api.ts';
import { t, tIfKnown } from './i18n.ts';

interface Problems {
  problem: string | null;
  say(problem: string | null): void;
}

const ProblemContext = createContext<Problems>({ problem: null, say: () => undefined });

/**
 * What failed and why, in the UI's language: the action's sentence, then the reason for this
 * action and code, or for the code, or else the worker's own message.
 */
export function failureText(type: RuntimeRequest['type'], error: TetherError): string {
  const action = type.replace('.', '_');
  const what = tIfKnown(`actionFailed_${action}`) ?? t('actionFailed');
  const why = tIfKnown(`failedBecause_${action}_${error.code}`) ?? tIfKnown(`failedBecause_${error.code}`) ?? error.message;
  return `${what} ${why}`;
}

/** Holds the page's problem line (around the whole page: see the pages' main.tsx). */
export function ActionProblems({ children }: { children: ComponentChildren }) {
  const [problem, say] = useState<string | null>(null);
  return <ProblemContext.Provider value={{ problem, say }}>{children}</ProblemContext.Provider>;
}

/** The problem line itself, where the page shows it: under its header. */
export function ProblemLine() {
  const { problem, say } = useContext(ProblemContext);
  if (!problem) return null;
  return (
    <div class="action-problem">
      <p class="problem" role="alert">
        {problem}
      </p>
      <button type="button" class="small" aria-label={t('hideProblem')} onClick={() => say(null)}>
        ×
      </button>
    </div>
  );
}

export type RunAction = <K extends RuntimeRequest['type']>(request: Extract<RuntimeRequest, { type: K }>) => Promise<Outcome<RuntimeAnswers[K]>>;

/** Runs a person's action: a failure is shown in the problem line, a success clears it. */
export function useAction(): RunAction {
  const { say } = useContext(ProblemContext);
  return useCallback<RunAction>(
    async (request) => {
      const answer = await ask(request);
      say(answer.ok ? null : failureText(request.type, answer.error));
      return answer;
    },
    [say],
  );
}
