/** Approvals waiting for the person: what will be written where, as whom; approve or decline. */
import { agentWords } from '../../shared/agent/agentIdentity.ts';
import type { UiApproval } from '../../shared/model/approval.ts';
import { formatBytes } from '../../shared/imageBytes.ts';
import { pick, t } from './i18n.ts';

/** "Claude Code (a3f2) wants to publish on blog.example as alice": who asks, to do what, where, as whom. */
function whoAsks(approval: UiApproval): string | null {
  if (!approval.agent) return null;
  const action = approval.action ?? 'publish';
  const who = agentWords(approval.agent);
  return approval.account ? t(`approvalAgent_${action}`, [who, approval.site, approval.account]) : t(`approvalAgentNoAccount_${action}`, [who, approval.site]);
}
import { useAction } from './useAction.tsx';

export function ApprovalsPanel({ approvals, onDecided }: { approvals: UiApproval[]; onDecided(): void }) {
  const run = useAction();
  if (approvals.length === 0) return null;
  const decide = async (approval: UiApproval, approve: boolean) => {
    await run({ type: 'approval.decide', approvalId: approval.id, approve });
    onDecided();
  };
  return (
    <section class="approvals" aria-labelledby="approvals-heading">
      <h2 id="approvals-heading">{t('approvalsHeading', String(approvals.length))}</h2>
      {approvals.map((approval) => (
        <article class="approval" key={approval.id} aria-label={t('approvalFor', [approval.title, approval.site])}>
          {whoAsks(approval) ? <p class="approval-agent">{whoAsks(approval)}</p> : null}
          <p class="approval-summary">{pick(approval.summary)}</p>
          <dl class="facts">
            <dt>{t('site')}</dt>
            <dd>{approval.site}</dd>
            <dt>{t('account')}</dt>
            <dd>{approval.account ?? t('accountUnknown')}</dd>
          </dl>
          <ol class="steps">
            {approval.steps.map((step, index) => (
              <li key={index}>{t(`stepLine_${step.op}`, [step.target, step.preview])}</li>
            ))}
          </ol>
          {approval.images && approval.images.length > 0 ? (
            <section class="approval-images" aria-label={t('approvalImagesHeading', approval.site)}>
              <h3>{t('approvalImagesHeading', approval.site)}</h3>
              <ul>
                {approval.images.map((image, index) => (
                  <li key={index} class={image.asks ? 'asks' : undefined}>
                    {image.thumbnail ? <img src={image.thumbnail} alt="" width={80} height={80} /> : <span class="no-thumbnail" aria-hidden="true" />}
                    <div>
                      <strong>{image.name}</strong>
                      <span>{t(`approvalImageFrom_${image.kind}`, image.from)}</span>
                      <span>{t('approvalImageFacts', [String(image.width), String(image.height), formatBytes(image.bytes)])}</span>
                      {image.asks ? <em>{t('approvalImageAsks')}</em> : null}
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          {approval.postImages && approval.postImages.length > 0 ? (
            <section class="approval-images" aria-label={t('approvalPostImagesHeading', String(approval.postImages.length))}>
              <h3>{t('approvalPostImagesHeading', String(approval.postImages.length))}</h3>
              <ul>
                {approval.postImages.map((image, index) => (
                  <li key={index}>
                    {image.thumbnail ? <img src={image.thumbnail} alt={image.alt} width={80} height={80} /> : <span class="no-thumbnail" aria-hidden="true" />}
                    <div>
                      <strong>{image.alt || t('approvalPostImageNoAlt')}</strong>
                      <span>{t('approvalPostImageFacts', [String(image.width), String(image.height), image.site])}</span>
                    </div>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
          <div class="buttons">
            <button type="button" class="primary" onClick={() => void decide(approval, true)}>
              {t('approve')}
            </button>
            <button type="button" onClick={() => void decide(approval, false)}>
              {t('decline')}
            </button>
          </div>
        </article>
      ))}
    </section>
  );
}
