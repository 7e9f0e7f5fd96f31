/**
 * Connection: what is going on, in one line — connected, waiting for the agent server, or the
 * native host not installed (with the one command that installs it); then the token pairing,
 * the fallback where the host cannot be installed.
 */
import { useState } from 'preact/hooks';
import { NAME_MAX_LENGTH, PAIRING_PORT_RANGE, TOKEN_MIN_LENGTH, type UiState } from '../../shared/extension/uiProtocol.ts';
import { ask } from './api.ts';
import { headline, headlineClass } from './connectionHeadline.ts';
import { formatTime, t } from './i18n.ts';
import { useAction } from './useAction.tsx';

export function ConnectionView({ state, onChanged }: { state: UiState; onChanged(): void }) {
  const { connection } = state;
  const [token, setToken] = useState('');
  const [port, setPort] = useState(String(connection.port));
  const [label, setLabel] = useState(state.profile.label);
  const [problem, setProblem] = useState<string | null>(null);
  const act = useAction();

  const pair = async () => {
    const portNumber = Number(port);
    const answer = await ask({ type: 'connection.set', token: token.trim(), ...(Number.isInteger(portNumber) && portNumber > 0 ? { port: portNumber } : {}) });
    setProblem(answer.ok ? null : t('tokenInvalid'));
    if (answer.ok) setToken('');
    onChanged();
  };
  const run = async (type: 'connection.reconnect' | 'connection.forget') => {
    await act({ type });
    onChanged();
  };

  const { native } = connection;
  const nativeServes = native.state === 'connected';
  const socketServes = connection.state === 'connected';

  return (
    <div class="connection">
      <section aria-labelledby="status-heading">
        <h2 id="status-heading">{t('connectionHeading')}</h2>
        <p class={`status status-${headlineClass(connection)}`} role="status">
          {headline(connection)}
          {!nativeServes && socketServes && connection.server ? ` — ${connection.server}` : ''}
          {nativeServes && native.since
            ? ` (${formatTime(native.since)})`
            : !nativeServes && socketServes && connection.since
              ? ` (${formatTime(connection.since)})`
              : ''}
        </p>
        {nativeServes && native.bridges === 0 ? <p class="hint">{t('native_waitingHint')}</p> : null}
        {nativeServes && connection.direct.state === 'connected' && connection.direct.port !== null ? (
          <p class="hint">{t('native_direct', String(connection.direct.port))}</p>
        ) : null}
        {!socketServes && (native.state === 'not_installed' || native.state === 'forbidden' || native.state === 'crashed') ? (
          <>
            <p class="hint">{native.state === 'crashed' ? t('native_crashedHint', native.detail ?? '') : t(`native_${native.state}Hint`)}</p>
            <pre class="command" aria-label={t('installCommand')}>
              {native.installCommand}
            </pre>
          </>
        ) : null}
        {native.state === 'unsupported' && !socketServes ? <p class="hint">{t('native_unsupportedHint')}</p> : null}
        {native.refused > 0 ? <p class="hint">{t('native_refused', String(native.refused))}</p> : null}
        <div class="buttons">
          <button type="button" onClick={() => void run('connection.reconnect')}>
            {t('checkAgain')}
          </button>
        </div>
      </section>
      <details class="fallback" open={!nativeServes}>
        <summary>{t('fallbackHeading')}</summary>
        <p class="hint">{t('fallbackHint')}</p>
        <p class="hint">
          {t('fallbackState', t(`connection_${connection.state}`))}
          {connection.detail ? ` — ${connection.detail}` : ''}
        </p>
        {connection.paired ? (
          <div class="buttons">
            <button type="button" onClick={() => void run('connection.forget')}>
              {t('forgetPairing')}
            </button>
          </div>
        ) : null}
        <section aria-labelledby="pair-heading">
          <h2 id="pair-heading">{t('pairHeading')}</h2>
          <p class="hint">{t('pairHint')}</p>
          <pre class="command">npx -y tether-mcp --print-token</pre>
          <form
            onSubmit={(event) => {
              event.preventDefault();
              void pair();
            }}
          >
            <label class="field">
              <span>{t('pairingToken')}</span>
              <input
                type="password"
                autocomplete="off"
                value={token}
                onInput={(event) => setToken(event.currentTarget.value)}
                required
                minLength={TOKEN_MIN_LENGTH}
              />
            </label>
            <label class="field">
              <span>{t('port')}</span>
              <input
                type="number"
                min={PAIRING_PORT_RANGE.min}
                max={PAIRING_PORT_RANGE.max}
                value={port}
                onInput={(event) => setPort(event.currentTarget.value)}
              />
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
      </details>
      <section aria-labelledby="profile-heading">
        <h2 id="profile-heading">{t('profileHeading')}</h2>
        <p class="hint">{t('profileHint', state.profile.id)}</p>
        <p class="hint">{t('buildHint', state.build)}</p>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            void act({ type: 'profile.rename', label: label.trim() }).then(onChanged);
          }}
        >
          <label class="field">
            <span>{t('profileLabel')}</span>
            <input type="text" value={label} onInput={(event) => setLabel(event.currentTarget.value)} required maxLength={NAME_MAX_LENGTH} />
          </label>
          <button type="submit">{t('save')}</button>
        </form>
      </section>
    </div>
  );
}
