/**
 * Tabs that left a workspace because they went to another site: one the workspace did not have,
 * or another of its own (a page can send its tab there, so it is no candidate until the person
 * says so). The person reads where the tab went, and may add it back (a new site comes in read
 * only; one of the workspace's keeps what it allows) or dismiss.
 */
import type { UiDeparture } from '../../shared/extension/uiProtocol.ts';
import { t } from './i18n.ts';
import { useAction } from './useAction.tsx';

export function DeparturesPanel({ departures, onChanged }: { departures: UiDeparture[]; onChanged(): void }) {
  const run = useAction();
  if (departures.length === 0) return null;
  const addBack = async (departure: UiDeparture) => {
    await run({ type: 'workspace.addTab', workspaceId: departure.workspaceId, tabId: departure.tabId });
    onChanged();
  };
  const dismiss = async (departure: UiDeparture) => {
    await run({ type: 'departure.dismiss', workspaceId: departure.workspaceId, tabId: departure.tabId });
    onChanged();
  };
  return (
    <section class="departures" aria-labelledby="departures-heading">
      <h2 id="departures-heading">{t('departuresHeading')}</h2>
      {departures.map((departure) => (
        <article
          class="departure"
          key={`${departure.workspaceId}:${departure.tabId}`}
          aria-label={t('departureFor', [departure.title, departure.workspaceName])}
        >
          {departure.toSiteIs === 'outside' ? (
            <>
              <p>{t('departureText', [departure.title, departure.workspaceName, departure.fromSite, departure.toSite])}</p>
              <p class="hint">{t('departureHint', departure.toSite)}</p>
            </>
          ) : (
            <>
              <p>{t('departureWithinText', [departure.title, departure.workspaceName, departure.fromSite, departure.toSite])}</p>
              <p class="hint">{t(departure.toSiteIs === 'writable' ? 'departureWithinHintWritable' : 'departureWithinHintReadOnly', departure.toSite)}</p>
            </>
          )}
          <div class="buttons">
            <button type="button" onClick={() => void addBack(departure)} aria-label={t('addBackNamed', [departure.title, departure.workspaceName])}>
              {t('addBack')}
            </button>
            <button type="button" onClick={() => void dismiss(departure)} aria-label={t('dismissNamed', departure.title)}>
              {t('dismiss')}
            </button>
          </div>
        </article>
      ))}
    </section>
  );
}
