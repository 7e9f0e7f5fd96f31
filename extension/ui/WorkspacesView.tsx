/**
 * Workspaces: the person makes them (from this window or a tab group), says which sites agents
 * may write and whether publishing needs their approval, shares them with agents or not.
 * Each tab shows its site, title and the account seen on the page.
 */
import { useState } from 'preact/hooks';
import browser from 'webextension-polyfill';
import type { SitePolicy } from '../../shared/model/targetModel.ts';
import { NAME_MAX_LENGTH, type UiState, type UiTab, type UiWorkspace } from '../../shared/extension/uiProtocol.ts';
import { t } from './i18n.ts';
import { useAction, type RunAction } from './useAction.tsx';

function accountText(tab: UiTab): string {
  if (tab.signIn === 'signed_in') return tab.account ? t('signedInAs', tab.account) : t('signedIn');
  if (tab.signIn === 'signed_out') return t('signedOut');
  return t('accountNotSeen');
}

function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return origin;
  }
}

function SiteRow({ workspace, origin, policy, onChanged }: { workspace: UiWorkspace; origin: string; policy: SitePolicy; onChanged(): void }) {
  const [account, setAccount] = useState(policy.expectedAccount ?? '');
  const run = useAction();
  const save = async (next: SitePolicy) => {
    await run({ type: 'workspace.setSite', workspaceId: workspace.id, origin, policy: next });
    onChanged();
  };
  const host = hostOf(origin);
  return (
    <li class="site-row">
      <span class="site-name">{host}</span>
      <label class="check">
        <input type="checkbox" checked={policy.writable} onChange={(event) => void save({ ...policy, writable: event.currentTarget.checked })} />
        {t('mayWrite', host)}
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={policy.publishWithoutApproval}
          disabled={!policy.writable}
          onChange={(event) => void save({ ...policy, publishWithoutApproval: event.currentTarget.checked })}
        />
        {t('publishWithoutAsking', host)}
      </label>
      <label class="check">
        <input
          type="checkbox"
          checked={policy.uploadImagesWithoutAsking === true}
          disabled={!policy.writable}
          onChange={(event) => void save({ ...policy, uploadImagesWithoutAsking: event.currentTarget.checked })}
        />
        {t('uploadImagesWithoutAsking', host)}
      </label>
      <label class="field">
        <span>{t('expectedAccount', host)}</span>
        <input
          type="text"
          value={account}
          placeholder={t('expectedAccountPlaceholder')}
          onInput={(event) => setAccount(event.currentTarget.value)}
          onBlur={() => {
            if (account !== (policy.expectedAccount ?? '')) void save({ ...policy, expectedAccount: account });
          }}
        />
      </label>
    </li>
  );
}

function WorkspaceCard({ workspace, state, onChanged }: { workspace: UiWorkspace; state: UiState; onChanged(): void }) {
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(workspace.name);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const act = useAction();
  const run = async (request: Parameters<RunAction>[0]) => {
    await act(request);
    onChanged();
  };
  const view = state.view;
  const canAddView = view !== null && view.origin !== null && !workspace.tabIds.includes(view.tabId);
  return (
    <article class={`workspace ${workspace.shared ? 'is-shared' : ''}`} aria-labelledby={`ws-${workspace.id}`}>
      <header class="workspace-header">
        {renaming ? (
          <form
            class="rename"
            onSubmit={(event) => {
              event.preventDefault();
              setRenaming(false);
              void run({ type: 'workspace.rename', workspaceId: workspace.id, name });
            }}
          >
            <label class="field">
              <span>{t('workspaceName')}</span>
              <input type="text" value={name} onInput={(event) => setName(event.currentTarget.value)} required maxLength={NAME_MAX_LENGTH} />
            </label>
            <button type="submit">{t('save')}</button>
          </form>
        ) : (
          <h3 id={`ws-${workspace.id}`}>{workspace.name}</h3>
        )}
        {renaming ? null : (
          <button type="button" class="small" onClick={() => setRenaming(true)} aria-label={t('renameNamed', workspace.name)}>
            {t('rename')}
          </button>
        )}
      </header>
      <label class="check share">
        <input
          type="checkbox"
          checked={workspace.shared}
          onChange={(event) => void run({ type: 'workspace.share', workspaceId: workspace.id, shared: event.currentTarget.checked })}
        />
        {t('shareWithAgents')}
      </label>
      <p class="hint">{workspace.shared ? t('sharedHint') : t('notSharedHint')}</p>

      <h4>{t('sitesHeading')}</h4>
      <ul class="plain sites">
        {Object.entries(workspace.sites).map(([origin, policy]) => (
          <SiteRow key={origin} workspace={workspace} origin={origin} policy={policy} onChanged={onChanged} />
        ))}
      </ul>

      <h4>{t('tabsHeading')}</h4>
      {workspace.tabs.length === 0 ? <p>{t('noTabs')}</p> : null}
      <ul class="plain tabs">
        {workspace.tabs.map((tab) => (
          <li key={tab.tabId} class={`tab-row ${tab.isView ? 'is-view' : ''}`}>
            <span class="tab-title">{tab.title || tab.url}</span>
            <span class="tab-meta">
              {tab.site} · {accountText(tab)}
              {workspace.sites[tab.origin ?? '']?.writable ? ` · ${t('writable')}` : ` · ${t('readOnly')}`}
            </span>
            <button
              type="button"
              class="small"
              onClick={() => void run({ type: 'workspace.removeTab', workspaceId: workspace.id, tabId: tab.tabId })}
              aria-label={t('removeTabNamed', tab.title || tab.site)}
            >
              {t('remove')}
            </button>
          </li>
        ))}
      </ul>
      <div class="buttons">
        {canAddView && view ? (
          <button type="button" onClick={() => void run({ type: 'workspace.addTab', workspaceId: workspace.id, tabId: view.tabId })}>
            {t('addViewTab', view.title || view.site)}
          </button>
        ) : null}
        {confirmDelete ? (
          <>
            <button type="button" class="danger" onClick={() => void run({ type: 'workspace.delete', workspaceId: workspace.id })}>
              {t('confirmDelete', workspace.name)}
            </button>
            <button type="button" onClick={() => setConfirmDelete(false)}>
              {t('cancel')}
            </button>
          </>
        ) : (
          <button type="button" class="danger-outline" onClick={() => setConfirmDelete(true)} aria-label={t('deleteNamed', workspace.name)}>
            {t('delete')}
          </button>
        )}
      </div>
    </article>
  );
}

export function WorkspacesView({ state, onChanged }: { state: UiState; onChanged(): void }) {
  const [name, setName] = useState('');
  const [groupId, setGroupId] = useState('');
  const run = useAction();
  const groups = state.windows.flatMap((window) => window.groups);

  const createFromWindow = async () => {
    const current = await browser.windows.getCurrent();
    const focused = state.windows.find((window) => window.windowId === current.id) ?? state.windows.find((window) => window.focused) ?? state.windows[0];
    if (!focused) return;
    await run({ type: 'workspace.createFromWindow', windowId: focused.windowId, ...(name.trim() ? { name: name.trim() } : {}) });
    setName('');
    onChanged();
  };
  const createFromGroup = async () => {
    if (groupId === '') return;
    await run({ type: 'workspace.createFromGroup', groupId: Number(groupId), ...(name.trim() ? { name: name.trim() } : {}) });
    setName('');
    onChanged();
  };

  return (
    <div class="workspaces">
      <section class="create" aria-labelledby="create-heading">
        <h2 id="create-heading">{t('createHeading')}</h2>
        <p class="hint">{t('createHint')}</p>
        <label class="field">
          <span>{t('newWorkspaceName')}</span>
          <input
            type="text"
            value={name}
            placeholder={t('newWorkspaceNamePlaceholder')}
            onInput={(event) => setName(event.currentTarget.value)}
            maxLength={NAME_MAX_LENGTH}
          />
        </label>
        <div class="buttons">
          <button type="button" class="primary" onClick={() => void createFromWindow()}>
            {t('createFromWindow')}
          </button>
        </div>
        {groups.length > 0 ? (
          <div class="from-group">
            <label class="field">
              <span>{t('tabGroup')}</span>
              <select value={groupId} onChange={(event) => setGroupId(event.currentTarget.value)}>
                <option value="">{t('chooseGroup')}</option>
                {groups.map((group) => (
                  <option key={group.groupId} value={String(group.groupId)}>
                    {t('groupOption', [group.title || t('untitledGroup'), String(group.tabCount)])}
                  </option>
                ))}
              </select>
            </label>
            <button type="button" disabled={groupId === ''} onClick={() => void createFromGroup()}>
              {t('createFromGroup')}
            </button>
          </div>
        ) : null}
      </section>
      {state.workspaces.length === 0 ? <p>{t('noWorkspaces')}</p> : null}
      {state.workspaces.map((workspace) => (
        <WorkspaceCard key={workspace.id} workspace={workspace} state={state} onChanged={onChanged} />
      ))}
    </div>
  );
}
