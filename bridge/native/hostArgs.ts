/** The native host's command line: the launcher's own flags, then (after "--") the browser's arguments. */
import { resolve } from 'node:path';
import { FIREFOX_ADDON_ID, NATIVE_HOST_NAME, TETHER_EXTENSION_ID } from '../../shared/native/nativeProtocol.ts';
import { pathFor, runDirOf, tetherHome } from '../runDir.ts';

export interface HostOptions {
  allow: string[];
  runDir: string;
  configDir: string | null;
  logFile: string | null;
  browserArgs: string[];
}

export function parseHostArgs(argv: string[]): HostOptions {
  const options: HostOptions = { allow: [], runDir: runDirOf(tetherHome()), configDir: null, logFile: null, browserArgs: [] };
  for (let index = 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    const value = () => argv[(index += 1)] ?? '';
    const absolute = () => {
      const text = value();
      return text ? resolve(text) : text;
    };
    if (arg === '--') {
      options.browserArgs = argv.slice(index + 1);
      break;
    }
    // Windows' launcher names Tether's folders relative to its own (`%~dp0..\run`): made absolute here.
    if (arg === '--allow') options.allow.push(value());
    else if (arg === '--run-dir') options.runDir = absolute();
    else if (arg === '--config-dir') options.configDir = absolute();
    else if (arg === '--log') options.logFile = absolute();
    else {
      // Started without the launcher's "--": everything is the browser's.
      options.browserArgs = argv.slice(index);
      break;
    }
  }
  if (options.allow.length === 0) options.allow.push(`chrome-extension://${TETHER_EXTENSION_ID}/`, FIREFOX_ADDON_ID);
  return options;
}

/**
 * Who started the host, in the browser's own words, each browser in its one form: Chromium passes
 * the caller's origin (`chrome-extension://<id>/`; on Windows then `--parent-window=…`); Firefox
 * passes exactly the absolute path of the manifest it read (Tether's; on Windows a `C:\…` path)
 * and the add-on id. Anything else is refused, whatever the allow list holds.
 */
export function callerAllowed(browserArgs: string[], allow: string[], platform: NodeJS.Platform = process.platform): boolean {
  const { basename, isAbsolute } = pathFor(platform);
  const [first, second] = browserArgs;
  if (first === undefined) return false;
  if (first.startsWith('chrome-extension://')) return allow.includes(first);
  return (
    browserArgs.length === 2 &&
    second !== undefined &&
    isAbsolute(first) &&
    basename(first) === `${NATIVE_HOST_NAME}.json` &&
    !second.includes('/') &&
    allow.includes(second)
  );
}
