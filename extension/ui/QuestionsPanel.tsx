/**
 * Agents' questions waiting for the person: an agent's resolve matched several tabs and asked
 * which one it means. Each candidate is shown in words (site, title, the account the page
 * showed); one click chooses it, or none is chosen. The answer goes to the agent that asked.
 */
import { agentWords } from '../../shared/agent/agentIdentity.ts';
import type { Question, QuestionCandidate } from '../../shared/model/question.ts';
import { formatTime, t } from './i18n.ts';
import { useAction } from './useAction.tsx';

function candidateWords(candidate: QuestionCandidate): string {
  const title = candidate.title || candidate.site;
  return candidate.account ? t('questionCandidate', [candidate.site, title, candidate.account]) : t('questionCandidateNoAccount', [candidate.site, title]);
}

export function QuestionsPanel({ questions, onAnswered }: { questions: Question[]; onAnswered(): void }) {
  const run = useAction();
  if (questions.length === 0) return null;
  const answer = async (question: Question, tabId: number | null) => {
    await run({ type: 'question.answer', questionId: question.id, tabId });
    onAnswered();
  };
  return (
    <section class="questions" aria-labelledby="questions-heading">
      <h2 id="questions-heading">{t('questionsHeading', String(questions.length))}</h2>
      {questions.map((question) => (
        <article class="question" key={question.id} aria-label={t('questionFor', agentWords(question.agent))}>
          <p class="question-ask">{t(`questionAsk_${question.role}`, [agentWords(question.agent), question.named])}</p>
          <ul class="plain candidates">
            {question.candidates.map((candidate) => (
              <li key={candidate.tabId}>
                <button
                  type="button"
                  class="candidate"
                  onClick={() => void answer(question, candidate.tabId)}
                  aria-label={t('questionPickNamed', [candidate.title || candidate.site, candidate.site])}
                >
                  <span class="candidate-words">
                    {candidateWords(candidate)}
                    {candidate.path ? <span class="candidate-path">{candidate.path}</span> : null}
                    {candidate.heldBy ? <span class="candidate-held">{t('questionCandidateHeld', candidate.heldBy)}</span> : null}
                  </span>
                  <span class="candidate-pick">{t('questionPick')}</span>
                </button>
              </li>
            ))}
          </ul>
          <p class="hint">{t('questionUntil', formatTime(question.expiresAt))}</p>
          <div class="buttons">
            <button type="button" onClick={() => void answer(question, null)}>
              {t('questionDecline')}
            </button>
          </div>
        </article>
      ))}
    </section>
  );
}
