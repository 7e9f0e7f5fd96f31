/**
 * Scenario 7, in the real extension: arbitrary JSON, `__proto__` keys, huge strings, deep nesting,
 * NaN and negative ids sent to every message handler — the worker's agent entry, its runtime
 * channel, and the content script's page channel. Every answer is a typed error (or a harmless
 * read), no state changes, no tab is opened or written, and every agent request is journaled.
 * (The same arbitraries drive the Node-side property tests in shared/hostileInput.property.test.ts.)
 */
import fc from 'fast-check';
import type { Worker } from '@playwright/test';
import { ERROR_CODES } from '../../shared/errors.ts';
import { hostileJson, hostileTool } from '../../shared/testing/hostileInput.ts';
import { expect, test } from '../fixtures.ts';
import { blogScene, inspect } from '../support/blogFlow.ts';
import { recordCounts } from './counts.ts';
import { untouched } from './untouched.ts';

const AGENT_CASES = 250;
const RUNTIME_CASES = 150;
const PAGE_CASES = 150;

test('arbitrary input to every message handler: typed errors, no state change, nothing written', async ({ tether, sites }) => {
  test.setTimeout(180_000);
  const scene = await blogScene(tether);
  await inspect(tether, scene);
  const watch = await untouched([scene.blog, scene.cafe], sites);
  const control = await tether.control();
  const snapshot = async () => {
    const state = await tether.state();
    const session = await control.evaluate(async () => {
      const everything = await chrome.storage.session.get(null);
      return Object.keys(everything)
        .filter((key) => key.startsWith('tether.handle.'))
        .sort();
    });
    const tabs = await control.evaluate(async () => (await chrome.tabs.query({})).length);
    return { workspaces: state.workspaces.map(({ tabs: _tabs, requestTimeTab: _active, ...workspace }) => workspace), programs: state.programs, session, tabs };
  };
  const before = await snapshot();
  const journalBefore = (await tether.must({ type: 'journal.export' })).count;

  // The worker's agent entry (what the bridge calls). Inputs travel as JSON text: Playwright's own
  // serializer cannot carry 2,000 levels of nesting, and the browser's messaging may refuse them.
  const agentCases = fc.sample(fc.tuple(hostileTool, hostileJson), { numRuns: AGENT_CASES, seed: 20261130 });
  const agentAnswers = await control.evaluate(
    async (cases) => {
      const answers: Array<{ tool: unknown; ok?: boolean; code?: string; threw?: string }> = [];
      for (const text of cases) {
        const [tool, args] = JSON.parse(text) as [unknown, unknown];
        try {
          const answer = (await chrome.runtime.sendMessage({
            channel: 'tether.runtime',
            request: { type: 'agent.request', tool: typeof tool === 'string' ? tool.slice(0, 40) : JSON.stringify(tool).slice(0, 40), args },
          })) as {
            ok: boolean;
            value?: { ok: boolean; error?: { code: string } };
            error?: { code: string };
          };
          answers.push(
            answer.ok ? { tool, ok: answer.value?.ok ?? false, code: answer.value?.error?.code ?? '' } : { tool, ok: false, code: answer.error?.code ?? '?' },
          );
        } catch (error) {
          answers.push({ tool, threw: String(error) });
        }
      }
      return answers;
    },
    agentCases.map((item) => JSON.stringify(item)),
  );
  let journaled = 0;
  for (const answer of agentAnswers) {
    if (answer.threw !== undefined) {
      // Refused by the browser's messaging before it reached Tether (e.g. too deep): nothing happened.
      expect(answer.threw).toMatch(/depth|serializ|size|Error/i);
      continue;
    }
    journaled += 1;
    if (answer.ok) expect(answer.tool).toBe('context');
    else expect(ERROR_CODES).toContain(answer.code);
  }

  // The runtime channel itself, with arbitrary requests.
  const runtimeCases = fc.sample(hostileJson, { numRuns: RUNTIME_CASES, seed: 7 });
  const runtimeAnswers = await control.evaluate(
    async (requests) => {
      const answers: string[] = [];
      for (const text of requests) {
        const request: unknown = JSON.parse(text);
        try {
          const answer = (await chrome.runtime.sendMessage({ channel: 'tether.runtime', request })) as { ok: boolean; error?: { code: string } };
          answers.push(answer.ok ? 'ok' : (answer.error?.code ?? '?'));
        } catch {
          answers.push('refused by the browser');
        }
      }
      return answers;
    },
    runtimeCases.map((item) => JSON.stringify(item)),
  );
  for (const answer of runtimeAnswers) expect(['invalid_request', 'refused by the browser']).toContain(answer);

  // The content script's page channel, reached the only way it can be: from the worker.
  const worker: Worker | undefined = tether.context.serviceWorkers().find((candidate) => candidate.url().includes(tether.extensionId));
  expect(worker).toBeDefined();
  const pageCases = fc.sample(
    fc.oneof(
      hostileJson,
      fc.record(
        {
          channel: fc.constant('tether.page'),
          type: fc.constantFrom('act', 'inspect', 'actStatus', 'observe', 'x'),
          plan: hostileJson,
          expect: hostileJson,
          requestId: hostileJson,
        },
        { requiredKeys: ['channel', 'type'] },
      ),
    ),
    { numRuns: PAGE_CASES, seed: 11 },
  );
  const blogTabId = await tether.tabIdOf(scene.blog);
  // Sent on the page port as the worker does ({ id, request }), each also bare and under an id that
  // is not one (those must be ignored); an observe last, whose answer says everything before it was handled.
  const pageAnswers = await worker?.evaluate(
    async ({ tabId, messages }) => {
      const port = chrome.tabs.connect(tabId, { name: 'tether.page', frameId: 0 });
      const answers = new Map<number, string>();
      let unexpected = 0;
      const sentinel = messages.length + 1;
      const done = new Promise<void>((resolve) => {
        port.onMessage.addListener((message: { id?: unknown; reply?: { ok?: boolean; error?: { code?: string } }; failed?: string }) => {
          if (typeof message.id !== 'number' || message.id < 1 || message.id > sentinel) {
            unexpected += 1;
            return;
          }
          const reply = message.reply;
          answers.set(message.id, message.failed !== undefined ? 'failed' : reply?.ok ? 'ok' : (reply?.error?.code ?? '?'));
          if (message.id === sentinel) resolve();
        });
      });
      messages.forEach((text, index) => {
        const message: unknown = JSON.parse(text);
        port.postMessage(message);
        port.postMessage({ id: `x${index}`, request: message });
        port.postMessage({ id: index + 1, request: message });
      });
      port.postMessage({ id: sentinel, request: { channel: 'tether.page', type: 'observe' } });
      await done;
      // Answers are sent as each request is handled; a moment more for any that came out of order.
      await new Promise((resolve) => setTimeout(resolve, 200));
      port.disconnect();
      return {
        answers: messages.map((_, index) => answers.get(index + 1) ?? 'ignored'),
        sentinel: answers.get(sentinel),
        unexpected,
      };
    },
    { tabId: blogTabId, messages: pageCases.map((item) => JSON.stringify(item)) },
  );
  expect(pageAnswers?.sentinel).toBe('ok');
  expect(pageAnswers?.unexpected).toBe(0);
  for (const [index, answer] of (pageAnswers?.answers ?? []).entries()) {
    const message = pageCases[index] as { type?: string };
    // Only a well-formed observe or actStatus (reads) may answer ok; everything else is refused or ignored.
    if (answer === 'ok') expect(['observe', 'actStatus']).toContain(message.type);
    else expect(['ignored', ...ERROR_CODES]).toContain(answer);
  }

  expect(await snapshot()).toEqual(before);
  await watch.check();
  // Every agent request, garbage included, left a journal record.
  expect((await tether.must({ type: 'journal.export' })).count).toBe(journalBefore + journaled);
  expect(journaled).toBeGreaterThan(AGENT_CASES * 0.9);
  recordCounts({ scenario: 'arbitrary input to every handler', inputs: AGENT_CASES + RUNTIME_CASES + PAGE_CASES });
});
