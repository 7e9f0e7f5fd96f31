import { describe, expect, it } from 'vitest';
import { parseAgentRequest } from './parseAgentRequest.ts';

const plan = { steps: [{ op: 'fill', field: 'title', text: 'Hello' }] };

describe('parseAgentRequest (R9 and schema)', () => {
  it.each([
    { name: 'unknown tool', tool: 'navigate', args: {}, code: 'invalid_request' },
    { name: 'arguments not an object', tool: 'resolve', args: [1, 2], code: 'invalid_request' },
    { name: 'an unknown key (a typo)', tool: 'resolve', args: { profile: 'p', workspace: 'w', destinaton: { site: 'blog' } }, code: 'invalid_request' },
    { name: 'a wrong type', tool: 'resolve', args: { profile: 'p', workspace: 'w', readOnly: 'yes' }, code: 'invalid_request' },
    { name: 'a plan with no steps', tool: 'act', args: { profile: 'p', workspace: 'w', handle: 'h', plan: { steps: [] } }, code: 'invalid_request' },
    {
      name: 'a step with an unknown op',
      tool: 'act',
      args: { profile: 'p', workspace: 'w', handle: 'h', plan: { steps: [{ op: 'navigate', url: 'x' }] } },
      code: 'invalid_request',
    },
    { name: 'a negative tab id', tool: 'resolve', args: { profile: 'p', workspace: 'w', destination: { tabId: -1 } }, code: 'invalid_request' },
    { name: 'at that is not a time', tool: 'act', args: { profile: 'p', workspace: 'w', handle: 'h', plan, at: 'tomorrow' }, code: 'invalid_request' },
  ])('$name → $code', ({ tool, args, code }) => {
    const outcome = parseAgentRequest(tool, args);
    expect(outcome.ok ? 'ok' : outcome.error.code).toBe(code);
    if (!outcome.ok) expect(outcome.error.message).toMatch(/schema|Unknown tool|JSON object/);
  });

  it.each([
    { tool: 'resolve', args: {}, missing: ['profile', 'workspace'] },
    { tool: 'resolve', args: { profile: 'p' }, missing: ['workspace'] },
    { tool: 'inspect', args: { profile: 'p', workspace: 'w' }, missing: ['handle'] },
    { tool: 'inspect', args: { workspace: 'w', handle: 'h' }, missing: ['profile'] },
    { tool: 'act', args: { profile: 'p', workspace: 'w', handle: 'h' }, missing: ['plan'] },
    { tool: 'act', args: { plan }, missing: ['profile', 'workspace', 'handle'] },
  ])('$tool missing $missing → missing_context naming exactly those', ({ tool, args, missing }) => {
    const outcome = parseAgentRequest(tool, args);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('missing_context');
    expect(outcome.error.details?.missing).toEqual(missing);
    for (const field of missing) expect(outcome.error.message).toContain(field);
  });

  it('context needs nothing', () => {
    expect(parseAgentRequest('context', undefined).ok).toBe(true);
    expect(parseAgentRequest('context', {}).ok).toBe(true);
  });

  it.each([
    { name: 'fill as markdown', step: { op: 'fill', field: 'body', text: '## Hi', format: 'markdown' }, ok: true },
    { name: 'append as html', step: { op: 'append', field: 'body', text: '<p>x</p>', format: 'html' }, ok: true },
    { name: 'fill as text', step: { op: 'fill', field: 'body', text: 'x', format: 'text' }, ok: true },
    { name: 'a format on clear', step: { op: 'clear', field: 'body', format: 'markdown' }, ok: false },
    { name: 'an unknown format', step: { op: 'fill', field: 'body', text: 'x', format: 'rtf' }, ok: false },
    { name: 'markdown over the size limit', step: { op: 'fill', field: 'body', text: '#'.repeat(200_001), format: 'markdown' }, ok: false },
  ])('a step: $name → ok $ok', ({ step, ok }) => {
    const outcome = parseAgentRequest('act', { profile: 'p', workspace: 'w', handle: 'h', plan: { steps: [step] } });
    expect(outcome.ok).toBe(ok);
    if (!outcome.ok) expect(outcome.error.code).toBe('invalid_request');
  });

  it('an unknown format is refused naming the three allowed', () => {
    const outcome = parseAgentRequest('act', {
      profile: 'p',
      workspace: 'w',
      handle: 'h',
      plan: { steps: [{ op: 'fill', field: 'body', text: 'x', format: 'rtf' }] },
    });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) for (const allowed of ['text', 'markdown', 'html']) expect(JSON.stringify(outcome.error.details)).toContain(allowed);
  });

  it.each([
    { readAs: 'markdown', ok: true },
    { readAs: 'text', ok: true },
    { readAs: 'html', ok: false },
    { readAs: 1, ok: false },
  ])('inspect readAs $readAs → ok $ok', ({ readAs, ok }) => {
    const outcome = parseAgentRequest('inspect', { profile: 'p', workspace: 'w', handle: 'h', read: ['body'], readAs });
    expect(outcome.ok).toBe(ok);
    if (!outcome.ok) expect(JSON.stringify(outcome.error.details)).toContain('markdown');
  });

  it('a complete request parses', () => {
    const outcome = parseAgentRequest('act', { profile: 'p', workspace: 'w', handle: 'h', plan, requestId: 'r1', at: '2026-12-01T10:00:00Z' });
    expect(outcome.ok && outcome.value.tool).toBe('act');
  });

  it('inspect reads on from a place in a text read names; a place for a text read does not name, or not a place, is refused', () => {
    const base = { profile: 'p', workspace: 'w', handle: 'h' };
    expect(parseAgentRequest('inspect', { ...base, read: ['article'], from: { article: 49_996 } }).ok).toBe(true);
    const stray = parseAgentRequest('inspect', { ...base, read: ['main'], from: { main: 10, article: 20 } });
    expect(stray.ok ? 'ok' : stray.error.code).toBe('invalid_request');
    if (!stray.ok) {
      expect(stray.error.message).toBe('from names article, which read does not: name each text in read too.');
      expect(stray.error.details?.from).toEqual(['article']);
    }
    for (const from of [{ main: -1 }, { main: 1.5 }, { main: '10' }, [10]]) {
      const refused = parseAgentRequest('inspect', { ...base, read: ['main'], from });
      expect(refused.ok ? 'ok' : refused.error.code).toBe('invalid_request');
    }
  });
});
