/**
 * Scenario 7, in the real extension: arbitrary JSON, `__proto__` keys, huge strings, deep nesting,
 * NaN and negative ids sent to every message handler — the worker's agent entry, its runtime
 * channel, and the content script's page channel. Every answer is a typed error (or a harmless
 * read), no state changes, no tab is opened or written, and every agent request is journaled.
 * (The same arbitraries drive the Node-side property tests in shared/hostileInput.property.test.ts.)
 *
 * And near-valid requests that reach the tools: generated from a real profile, a shared workspace
 * and live handles, each changed in a few ways (another handle, tab, site, field, hash, a key
 * dropped or added), so most of them pass the parser and are decided by resolve, inspect or act.
 *
 * Only Tether's own refusals count as refusals: an envelope with a known code and a message, not
 * an internal failure. An exception in a handler, a runtime message the worker did not answer, or a
 * worker that died (its start time changed) fails the test. Each property draws a fresh seed
 * (printed; TETHER_SEED replays it) and prints the distribution of the outcomes it produced.
 */
import fc from 'fast-check';
import type { Worker } from '@playwright/test';
import type { JournalRecord } from '../../shared/model/journalRecord.ts';
import type { AnyToolEnvelope, ToolName } from '../../shared/agent/agentProtocol.ts';
import { ERROR_CODES } from '../../shared/errors.ts';
import { parseAgentRequest } from '../../shared/agent/parseAgentRequest.ts';
import { hostileJson, hostileTool } from '../../shared/testing/hostileInput.ts';
import { expect, test } from '../fixtures.ts';
import { ok } from '../support/answers.ts';
import { blogScene, inspect } from '../support/blogFlow.ts';
import { scenarioCounts } from './counts.ts';
import { withSeed } from './seed.ts';
import { untouched } from './untouched.ts';

const AGENT_CASES = 250;
const RUNTIME_CASES = 150;
const PAGE_CASES = 150;
const NEAR_VALID_CASES = 200;

/** Nesting deeper than this is refused by the browser's messaging before Tether sees it. */
const BROWSER_DEPTH_LIMIT = 100;

function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  let deepest = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop() as [unknown, number];
    deepest = Math.max(deepest, depth);
    if (typeof item === 'object' && item !== null)
      for (const child of Object.values(item)) if (typeof child === 'object' && child !== null) stack.push([child, depth + 1]);
  }
  return deepest;
}

function tally(outcomes: string[]): string {
  const counts = new Map<string, number>();
  for (const outcome of outcomes) counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
  return [...counts.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([outcome, count]) => `${outcome} ${count}`)
    .join(', ');
}

/** Tether's own refusal: a known code, a message, and not an exception caught by the request entry. */
function expectTetherRefusal(envelope: AnyToolEnvelope, what: string): string {
  if (envelope.ok) return 'ok';
  expect(ERROR_CODES, what).toContain(envelope.error.code);
  expect(envelope.error.message.length, what).toBeGreaterThan(0);
  expect(envelope.error.details?.internal, `${what}: ${envelope.error.message}`).toBeUndefined();
  return envelope.error.code;
}

test('arbitrary input to every message handler: typed errors, no state change, nothing written', async ({ tether, sites }) => {
  test.setTimeout(180_000);
  await withSeed('arbitrary input to every handler', async (seed) => {
    const counts = scenarioCounts('arbitrary input to every handler');
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
      return {
        workspaces: state.workspaces.map(({ tabs: _tabs, requestTimeTab: _active, ...workspace }) => workspace),
        programs: state.programs,
        session,
        tabs,
      };
    };
    const before = await snapshot();
    const journalBefore = (await tether.must({ type: 'journal.export' })).count;
    const workerBefore = await tether.workerStartTime();
    expect(workerBefore).not.toBeNull();

    // The worker's agent entry (what the bridge calls). Inputs travel as JSON text: Playwright's own
    // serializer cannot carry 2,000 levels of nesting, and the browser's messaging may refuse them.
    const agentCases = fc.sample(fc.tuple(hostileTool, hostileJson), { numRuns: AGENT_CASES, seed });
    const agentAnswers = await control.evaluate(
      async (cases) => {
        const answers: Array<{ tool: unknown; ok?: boolean; code?: string; internal?: boolean; threw?: string }> = [];
        for (const text of cases) {
          const [tool, args] = JSON.parse(text) as [unknown, unknown];
          try {
            const answer = (await chrome.runtime.sendMessage({
              channel: 'tether.runtime',
              request: { type: 'agent.request', tool: typeof tool === 'string' ? tool.slice(0, 40) : JSON.stringify(tool).slice(0, 40), args },
            })) as {
              ok: boolean;
              value?: { ok: boolean; error?: { code: string; details?: { internal?: boolean } } };
              error?: { code: string };
            };
            answers.push(
              answer.ok
                ? { tool, ok: answer.value?.ok ?? false, code: answer.value?.error?.code ?? '', internal: answer.value?.error?.details?.internal === true }
                : { tool, ok: false, code: `runtime:${answer.error?.code ?? '?'}` },
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
    const agentOutcomes: string[] = [];
    for (const [index, answer] of agentAnswers.entries()) {
      const [, args] = agentCases[index] as [unknown, unknown];
      if (answer.threw !== undefined) {
        // Only the browser's messaging may refuse a case, and only one nested past what it carries.
        expect(depthOf(args), `sendMessage threw ${answer.threw}`).toBeGreaterThan(BROWSER_DEPTH_LIMIT);
        agentOutcomes.push('refused by the browser (too deep)');
        continue;
      }
      journaled += 1;
      expect(answer.code, 'the runtime channel answered the agent request').not.toBe('?');
      if (answer.ok) expect(answer.tool).toBe('context');
      else expect(ERROR_CODES).toContain(answer.code);
      expect(answer.internal, `an exception in a handler: ${answer.code}`).not.toBe(true);
      agentOutcomes.push(answer.ok ? 'ok' : (answer.code ?? '?'));
    }
    console.log(`arbitrary agent requests (${AGENT_CASES}): ${tally(agentOutcomes)}`);

    // The runtime channel itself, with arbitrary requests.
    const runtimeCases = fc.sample(hostileJson, { numRuns: RUNTIME_CASES, seed: seed + 1 });
    const runtimeAnswers = await control.evaluate(
      async (requests) => {
        const answers: string[] = [];
        for (const text of requests) {
          const request: unknown = JSON.parse(text);
          try {
            const answer = (await chrome.runtime.sendMessage({ channel: 'tether.runtime', request })) as { ok: boolean; error?: { code: string } } | undefined;
            answers.push(answer === undefined ? 'no answer' : answer.ok ? 'ok' : (answer.error?.code ?? '?'));
          } catch (error) {
            answers.push(`threw: ${String(error)}`);
          }
        }
        return answers;
      },
      runtimeCases.map((item) => JSON.stringify(item)),
    );
    for (const [index, answer] of runtimeAnswers.entries()) {
      // Arbitrary requests are not the runtime channel's: each is refused as invalid_request, unless
      // the browser's messaging refused one nested past what it carries.
      if (answer.startsWith('threw:')) expect(depthOf(runtimeCases[index]), answer).toBeGreaterThan(BROWSER_DEPTH_LIMIT);
      else expect(answer).toBe('invalid_request');
    }
    console.log(
      `arbitrary runtime requests (${RUNTIME_CASES}): ${tally(runtimeAnswers.map((answer) => (answer.startsWith('threw:') ? 'refused by the browser (too deep)' : answer)))}`,
    );

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
      { numRuns: PAGE_CASES, seed: seed + 2 },
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
      const message = pageCases[index] as { channel?: unknown; type?: string } | null;
      // The port answers exactly the requests on Tether's page channel; anything else is ignored.
      // A request on the channel that got no answer (its handler hung or threw before answering),
      // or answered "failed" (its handler threw), fails here.
      const onChannel = typeof message === 'object' && message !== null && message.channel === 'tether.page';
      if (!onChannel) {
        expect(answer, `message ${index} is not on the page channel`).toBe('ignored');
        continue;
      }
      expect(['ignored', 'failed'], `message ${index} (${message.type}) is on the page channel`).not.toContain(answer);
      // Only a well-formed observe or actStatus (reads) may answer ok; everything else is refused.
      if (answer === 'ok') expect(['observe', 'actStatus']).toContain(message.type);
      else expect(ERROR_CODES).toContain(answer);
    }
    console.log(`arbitrary page-channel messages (${PAGE_CASES}): ${tally(pageAnswers?.answers ?? [])}`);

    expect(await snapshot()).toEqual(before);
    await watch.check();
    // Every agent request, garbage included, left a journal record.
    expect((await tether.must({ type: 'journal.export' })).count).toBe(journalBefore + journaled);
    expect(journaled).toBeGreaterThan(AGENT_CASES * 0.9);
    // The same worker answered everything: none of it killed it.
    expect(await tether.workerStartTime()).toBe(workerBefore);
    counts.generated(agentCases.length + runtimeCases.length + pageCases.length);
    counts.save();
  });
});

test('near-valid requests from a real profile, workspace and live handles reach resolve, inspect and act', async ({ tether, sites }) => {
  test.setTimeout(300_000);
  await withSeed('near-valid requests', async (seed) => {
    const counts = scenarioCounts('near-valid requests reaching the tools');
    const scene = await blogScene(tether);
    const inspected = await inspect(tether, scene);
    const cafeRead = ok(await tether.agent('inspect', { profile: scene.profile, workspace: scene.workspace, handle: scene.reference }));
    // A second, unshared workspace and a blog tab outside any workspace: neither may be reached.
    const notes = await tether.open('notes', '/');
    const privateWorkspace = (await tether.workspaceOf([notes], { name: 'Private', share: false })).id;
    const outside = await tether.open('blog', '/write?editor=plain&outside=1');
    const watch = await untouched([scene.cafe, notes, outside], sites);
    const workerBefore = await tether.workerStartTime();
    expect(workerBefore).not.toBeNull();
    const blogTab = await tether.tabIdOf(scene.blog);
    const cafeTab = await tether.tabIdOf(scene.cafe);
    const fields = inspected.fields ?? [];
    const hashes = fields.map((field) => field.hash);
    const options = fields.find((field) => field.name === 'category')?.options ?? [];

    const profile = fc.oneof({ weight: 15, arbitrary: fc.constant(scene.profile) }, fc.constantFrom('pr_someone_else', ''));
    const workspace = fc.oneof({ weight: 15, arbitrary: fc.constant(scene.workspace) }, fc.constantFrom(privateWorkspace, 'ws_nothere'));
    const handle = fc.oneof(
      { weight: 5, arbitrary: fc.constant(scene.write) },
      { weight: 2, arbitrary: fc.constant(scene.reference) },
      { weight: 1, arbitrary: fc.constantFrom(`th_${'A'.repeat(24)}`, scene.write.slice(0, -1)) },
    );
    const spec = fc.oneof(
      fc.record({ site: fc.constantFrom('blog', 'cafe', 'notes', '블로그', 'shop') }),
      fc.record({ url: fc.constantFrom(scene.blog.url(), scene.cafe.url(), sites.url('blog', '/wr'), notes.url(), outside.url()) }),
      fc.record({ tabId: fc.constantFrom(blogTab, cafeTab, 999_999, -1) }),
      fc.record({ title: fc.constantFrom('New post', 'Weekly', 'zzz') }),
    );
    const text = fc.string({ maxLength: 40 });
    const expectation = fc.option(
      fc.oneof(fc.record({ hash: fc.constantFrom(...hashes, 'h_wrong') }), fc.record({ text: fc.constantFrom('', 'something else') })),
      { nil: undefined },
    );
    const fieldName = fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...fields.map((field) => field.name)) }, fc.constantFrom('comment', 'nope'));
    const step = fc.oneof(
      {
        weight: 4,
        arbitrary: fc.record({ op: fc.constantFrom('fill', 'append'), field: fieldName, text, expect: expectation }, { requiredKeys: ['op', 'field', 'text'] }),
      },
      fc.record({ op: fc.constant('clear'), field: fieldName }),
      fc.record({ op: fc.constant('select'), field: fc.constantFrom('category', 'title'), value: fc.constantFrom(...options, 'zzz') }),
      // Actions that need no approval (publishing would wait for the person).
      fc.record({ op: fc.constant('click'), action: fc.constantFrom('save_draft', 'nope') }),
    );
    const plan = fc.record({ steps: fc.array(step, { minLength: 1, maxLength: 3 }), continueDraft: fc.boolean() }, { requiredKeys: ['steps'] });
    const read = fc.subarray(['post.title', 'post.body', ...(cafeRead.readable ?? []), 'nope']);
    const scoped = <T extends Record<string, unknown>>(rest: fc.Arbitrary<T>) =>
      fc.tuple(profile, workspace, rest).map(([p, w, r]) => ({ profile: p, workspace: w, ...r }));
    const request: fc.Arbitrary<{ tool: ToolName; args: Record<string, unknown> }> = fc.oneof(
      { weight: 1, arbitrary: scoped(fc.record({})).map((args) => ({ tool: 'context' as const, args })) },
      {
        weight: 3,
        arbitrary: scoped(
          fc.record(
            { destination: spec, references: fc.array(spec, { maxLength: 2 }), readOnly: fc.boolean(), continueDraft: fc.constant(true) },
            { requiredKeys: [] },
          ),
        ).map((args) => ({ tool: 'resolve' as const, args })),
      },
      { weight: 3, arbitrary: scoped(fc.record({ handle, read }, { requiredKeys: ['handle'] })).map((args) => ({ tool: 'inspect' as const, args })) },
      {
        weight: 3,
        arbitrary: scoped(
          fc.record(
            { handle, plan, lang: fc.constantFrom('en', 'ko'), approvalTimeoutSeconds: fc.constant(1) },
            { requiredKeys: ['handle', 'plan', 'approvalTimeoutSeconds'] },
          ),
        ).map((args) => ({
          tool: 'act' as const,
          args,
        })),
      },
    );
    // Then one thing more may be off: a key dropped, or one the tool does not know.
    const mutated = fc
      .tuple(request, fc.constantFrom('as is', 'as is', 'as is', 'as is', 'as is', 'as is', 'drop a key', 'unknown key'), fc.nat())
      .map(([{ tool, args }, change, pick]) => {
        const keys = Object.keys(args);
        if (change === 'drop a key' && keys.length > 0) {
          const { [keys[pick % keys.length] as string]: _dropped, ...rest } = args;
          return { tool, args: rest, change };
        }
        if (change === 'unknown key') return { tool, args: { ...args, extra: 1 }, change };
        return { tool, args, change: 'as is' };
      });
    const cases = fc.sample(mutated, { numRuns: NEAR_VALID_CASES, seed });

    const outcomes: string[] = [];
    for (const [index, item] of cases.entries()) {
      // tether.agent fails the test when the runtime channel does not answer (or the worker is gone).
      const envelope = (await tether.agent(item.tool, item.args)) as AnyToolEnvelope;
      const outcome = expectTetherRefusal(envelope, `case ${index}: ${item.tool} ${JSON.stringify(item.args).slice(0, 300)}`);
      outcomes.push(`${item.tool}:${outcome}`);
    }
    // How far each request got: past the request entry's parser (the same code the worker runs) to
    // resolve, inspect or act; and, from its journal record, whether the tool made its decision.
    const passed = cases.filter((item) => item.tool !== 'context' && parseAgentRequest(item.tool, item.args).ok).length;
    const records = (await tether.must({ type: 'journal.list', limit: 500 })) as JournalRecord[];
    const ours = records.slice(0, cases.length);
    expect(ours.length).toBe(cases.length);
    const decided = ours.filter((record) => record.lifecycle.decide !== undefined && ['resolve', 'inspect', 'act'].includes(record.tool)).length;
    console.log(`near-valid requests (${cases.length}): ${tally(outcomes)}`);
    console.log(
      `near-valid requests: ${passed} of ${cases.length} reached resolve, inspect or act; ${decided} were decided there (the rest refused on the way: scope, handle)`,
    );
    expect(passed, 'most cases reach the tools').toBeGreaterThan(cases.length / 2);
    // Some of them wrote, some were refused for what the mutation broke.
    expect(outcomes.some((outcome) => outcome === 'act:ok')).toBe(true);
    expect(new Set(outcomes.filter((outcome) => !outcome.endsWith(':ok'))).size).toBeGreaterThan(3);
    // Nothing outside the bound blog tab changed, and the same worker answered everything.
    await watch.check();
    expect(await tether.workerStartTime()).toBe(workerBefore);
    counts.generated(cases.length);
    counts.save();
  });
});
