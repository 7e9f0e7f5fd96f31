/** Connection: paired or not, which agent server, reconnect, and pasting the pairing token. */
import { useState } from 'preact/hooks';
import type { UiState } from '../../shared/runtimeProtocol.ts';
import { ask } from './api.ts';
import { formatTime, t } from './i18n.ts';

export function ConnectionView({ state, onChanged }: { state: UiState; onChanged(): void }) {
  const { connection } = state;
  const [token, setToken] = useState('');
  const [port, setPort] = useState(String(connection.port));
  const [label, setLabel] = useState(state.profile.label);
  const [problem, setProblem] = useState<string | null>(null);

  const pair = async () => {
    const portNumber = Number(port);
    const answer = await ask({ type: 'connection.set', token: token.trim(), ...(Number.isInteger(portNumber) && portNumber > 0 ? { port: portNumber } : {}) });
    setProblem(answer.ok ? null : t('tokenInvalid'));
    if (answer.ok) setToken('');
    onChanged();
  };
  const run = async (type: 'connection.reconnect' | 'connection.forget') => {
    await ask({ type });
    onChanged();
  };

  return (
    <div class="connection">
      <section aria-labelledby="status-heading">
        <h2 id="status-heading">{t('connectionHeading')}</h2>
        <p class={`status status-${connection.state}`} role="status">
          {t(`connection_${connection.state}`)}
          {connection.server ? ` — ${connection.server}` : ''}
          {connection.since ? ` (${formatTime(connection.since)})` : ''}
        </p>
        {connection.detail ? <p class="hint">{connection.detail}</p> : null}
        {connection.paired ? (
          <div class="buttons">
            <button type="button" onClick={() => void run('connection.reconnect')}>
              {t('reconnect')}
            </button>
            <button type="button" onClick={() => void run('connection.forget')}>
              {t('forgetPairing')}
            </button>
          </div>
        ) : null}
      </section>
      <section aria-labelledby="pair-heading">
        <h2 id="pair-heading">{t('pairHeading')}</h2>
        <p class="hint">{t('pairHint')}</p>
        <pre class="command">npx tether-mcp --print-token</pre>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void pair();
          }}
        >
          <label class="field">
            <span>{t('pairingToken')}</span>
            <input type="password" autocomplete="off" value={token} onInput={(event) => setToken(event.currentTarget.value)} required minLength={16} />
          </label>
          <label class="field">
            <span>{t('port')}</span>
            <input type="number" min={1024} max={65535} value={port} onInput={(event) => setPort(event.currentTarget.value)} />
          </label>
          <button type="submit" class="primary">
            {t('pair')}
          </button>
        </form>
        {problem ? (
          <p class="problem" role="alert">
            {problem}
          </p>
        ) : null}
      </section>
      <section aria-labelledby="profile-heading">
        <h2 id="profile-heading">{t('profileHeading')}</h2>
        <p class="hint">{t('profileHint', state.profile.id)}</p>
        <p class="hint">{t('buildHint', state.build)}</p>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void ask({ type: 'profile.rename', label: label.trim() }).then(onChanged);
          }}
        >
          <label class="field">
            <span>{t('profileLabel')}</span>
            <input type="text" value={label} onInput={(event) => setLabel(event.currentTarget.value)} required maxLength={80} />
          </label>
          <button type="submit">{t('save')}</button>
        </form>
      </section>
    </div>
  );
}
