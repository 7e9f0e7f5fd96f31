/**
 * The browser's own floor under Tether's inspect stages: the same hops made bare, in the same
 * Chromium, from Tether's own service worker, with nothing of Tether's on the path (an echo native
 * host, a page message the content script refuses at once, a bare IndexedDB write). Each round
 * trip comes after a short pause, as Tether's hops do (the threads they wake were idle), and the
 * kinds alternate in rounds so all see the same stretches of a shared machine.
 */
import { chmodSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Worker } from '@playwright/test';
import { median } from './stats.ts';
import type { BenchTether } from './tetherSetup.ts';

export interface BrowserFloor {
  /** Worker → native host → worker, the host echoing at once an answer the size of an inspect's. */
  nativeRoundTrip: number;
  /** Worker → the bound document (by documentId) → worker, the content script refusing at once. */
  pageRoundTrip: number;
  /** The same, with the two reads an inspect's revalidation makes alongside (tabs.get, webNavigation.getFrame). */
  pageRoundTripWithRevalidation: number;
  /** Tether's inspect message straight from the worker to the page (a reference, so no account check): the page's work included. */
  pageInspect: number;
  /** One IndexedDB add of a journal-sized record and its commit, relaxed durability. */
  idbCommit: number;
}

const ECHO_HOST = 'dev.tether.bench_echo';
const PAUSE_MS = 1;

/** A native host that sends every message straight back (the browser's framing: 32-bit length, then JSON). */
const ECHO_SOURCE = `let buffered = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  buffered = Buffer.concat([buffered, chunk]);
  while (buffered.length >= 4) {
    const length = buffered.readUInt32LE(0);
    if (buffered.length < 4 + length) break;
    process.stdout.write(buffered.subarray(0, 4 + length));
    buffered = buffered.subarray(4 + length);
  }
});
`;

function installEchoHost(bench: BenchTether): () => void {
  const dir = join(bench.launched.userDataDir, 'bench-echo-host');
  mkdirSync(dir, { recursive: true });
  const script = join(dir, 'echo.cjs');
  const launcher = join(dir, 'echo-host');
  writeFileSync(script, ECHO_SOURCE);
  writeFileSync(launcher, `#!/bin/sh\nexec '${process.execPath}' '${script}'\n`);
  chmodSync(launcher, 0o755);
  const manifests = join(bench.launched.userDataDir, 'NativeMessagingHosts');
  mkdirSync(manifests, { recursive: true });
  const manifest = join(manifests, `${ECHO_HOST}.json`);
  writeFileSync(
    manifest,
    JSON.stringify({
      name: ECHO_HOST,
      description: 'Tether bench: echoes native messages',
      path: launcher,
      type: 'stdio',
      allowed_origins: [`chrome-extension://${bench.launched.extensionId}/`],
    }),
  );
  return () => {
    rmSync(manifest, { force: true });
    rmSync(dir, { recursive: true, force: true });
  };
}

function tetherWorker(bench: BenchTether): Worker {
  const worker = bench.launched.context.serviceWorkers().find((candidate) => candidate.url().endsWith('/service-worker-loader.js'));
  if (!worker) throw new Error('Tether’s service worker is not running');
  return worker;
}

type Kind = keyof BrowserFloor;

export async function measureBrowserFloor(bench: BenchTether, rounds = 200): Promise<BrowserFloor> {
  const removeEchoHost = installEchoHost(bench);
  const worker = tetherWorker(bench);
  const url = bench.blog.url();
  try {
    // Everything runs inside the worker; only the times come back. Written without named inner
    // functions: the page's and worker's evaluate sees the function's source as it is.
    const times = await worker.evaluate(
      async ({ url, rounds, pause, host }) => {
        const tabId = (await chrome.tabs.query({})).find((tab) => tab.url === url)?.id;
        if (tabId === undefined) throw new Error(`no tab at ${url}`);
        const frame = await chrome.webNavigation.getFrame({ tabId, frameId: 0 });
        const documentId = frame?.documentId;
        if (!documentId) throw new Error('no documentId');
        const port = chrome.runtime.connectNative(host);
        // Tether's own page port (content/pageChannelServer.ts): one per document, requests matched by id.
        const page = chrome.tabs.connect(tabId, { name: 'tether.page', documentId });
        const pageWaiting = new Map<number, () => void>();
        page.onMessage.addListener((message: { id: number }) => pageWaiting.get(message.id)?.());
        let pageNext = 0;
        // (From an array: a function assigned to a name would be named, see above.)
        const [askPage] = [
          (request: unknown) =>
            new Promise<void>((resolve) => {
              pageNext += 1;
              pageWaiting.set(pageNext, resolve);
              page.postMessage({ id: pageNext, request });
            }),
        ];
        const echoes: Array<() => void> = [];
        port.onMessage.addListener(() => echoes.shift()?.());
        // About the size of an inspect's answer on the bench's page (its fields, actions and meta).
        const answer = { type: 'response', id: 'n1', envelope: { ok: true, result: { padding: 'x'.repeat(1100) } } };
        const record = {
          id: 'jr_bench',
          at: Date.now(),
          tool: 'inspect',
          via: 'agent',
          request: { profile: 'p', workspace: 'w', handle: 'h'.repeat(40), debug: true },
          lifecycle: { prepare: 0, dispatch: 0.1, decide: 1, observe: 2, record: 2.1 },
          observation: { adapter: 'blog', fields: 3, actions: 2, draft: false, signIn: 'signed_in' },
          targets: [{ tabId, site: 'blog', title: 'Write', account: 'alice', role: 'write' }],
          outcome: 'done',
          tookMs: 3,
        };
        const database = await new Promise<IDBDatabase>((resolve, reject) => {
          const opening = indexedDB.open('tether-bench-floor', 1);
          opening.onupgradeneeded = () => opening.result.createObjectStore('records', { autoIncrement: true });
          opening.onsuccess = () => resolve(opening.result);
          opening.onerror = () => reject(opening.error);
        });
        const inspect = { channel: 'tether.page', type: 'inspect', expect: { pageInstance: null, url, account: null, role: 'reference' }, read: [] };
        const out: Record<string, number[]> = {
          nativeRoundTrip: [],
          pageRoundTrip: [],
          pageRoundTripWithRevalidation: [],
          pageInspect: [],
          idbCommit: [],
        };
        for (let round = 0; round < rounds + 10; round += 1) {
          for (const kind of Object.keys(out)) {
            await new Promise((resolve) => setTimeout(resolve, pause));
            const started = performance.now();
            if (kind === 'nativeRoundTrip') {
              await new Promise<void>((resolve) => {
                echoes.push(resolve);
                port.postMessage(answer);
              });
            } else if (kind === 'pageRoundTrip') {
              await askPage({ channel: 'tether.page', type: 'bench-floor' });
            } else if (kind === 'pageRoundTripWithRevalidation') {
              await Promise.all([
                askPage({ channel: 'tether.page', type: 'bench-floor' }),
                chrome.tabs.get(tabId),
                chrome.webNavigation.getFrame({ tabId, frameId: 0 }),
              ]);
            } else if (kind === 'pageInspect') {
              await askPage(inspect);
            } else {
              await new Promise<void>((resolve, reject) => {
                const transaction = database.transaction('records', 'readwrite', { durability: 'relaxed' });
                transaction.objectStore('records').add({ ...record });
                transaction.oncomplete = () => resolve();
                transaction.onerror = () => reject(transaction.error);
                transaction.commit();
              });
            }
            if (round >= 10) out[kind]?.push(performance.now() - started);
          }
        }
        port.disconnect();
        page.disconnect();
        database.close();
        indexedDB.deleteDatabase('tether-bench-floor');
        return out;
      },
      { url, rounds, pause: PAUSE_MS, host: ECHO_HOST },
    );
    const floor = (kind: Kind) => median(times[kind] ?? []);
    return {
      nativeRoundTrip: floor('nativeRoundTrip'),
      pageRoundTrip: floor('pageRoundTrip'),
      pageRoundTripWithRevalidation: floor('pageRoundTripWithRevalidation'),
      pageInspect: floor('pageInspect'),
      idbCommit: floor('idbCommit'),
    };
  } finally {
    removeEchoHost();
  }
}
