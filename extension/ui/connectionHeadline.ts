import type { ConnectionStatus } from '../../shared/extension/uiProtocol.ts';
import { t } from './i18n.ts';

/** The one line that says what is going on: the native path first, the token pairing when that is what serves. */
export function headline(connection: ConnectionStatus): string {
  const { native } = connection;
  if (native.state === 'connected') {
    if (native.bridges === 0) return t('native_waiting');
    return native.bridges === 1 ? t('native_connected') : t('native_connected_many', String(native.bridges));
  }
  if (connection.state === 'connected' || connection.state === 'connecting' || connection.state === 'refused') return t(`connection_${connection.state}`);
  return t(`native_${native.state}`);
}

export function headlineClass(connection: ConnectionStatus): string {
  const { native } = connection;
  if (native.state === 'connected') return native.bridges > 0 ? 'connected' : 'waiting';
  if (connection.state === 'connected' || connection.state === 'refused') return connection.state;
  return native.state === 'starting' ? 'waiting' : 'problem';
}
