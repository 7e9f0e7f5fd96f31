/** The panel's view of the worker's state, refreshed whenever the worker says it changed. */
import { useCallback, useEffect, useState } from 'preact/hooks';
import type { UiState } from '../../shared/extension/uiProtocol.ts';
import { ask, onUiEvent } from './api.ts';

export interface UiStateHandle {
  state: UiState | null;
  problem: string | null;
  refresh(): Promise<void>;
}

export function useUiState(): UiStateHandle {
  const [state, setState] = useState<UiState | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const refresh = useCallback(async () => {
    const answer = await ask({ type: 'state.get' });
    if (answer.ok) {
      setState(answer.value);
      setProblem(null);
    } else {
      setProblem(answer.error.message);
    }
  }, []);
  useEffect(() => {
    void refresh();
    const stop = onUiEvent((type) => {
      if (type !== 'journal.changed') void refresh();
    });
    const onVisible = () => {
      if (document.visibilityState === 'visible') void refresh();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      stop();
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [refresh]);
  return { state, problem, refresh };
}
