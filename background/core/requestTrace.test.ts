import { describe, expect, it } from 'vitest';
import { failure, success, tetherError } from '../../shared/errors.ts';
import { forJournal, RequestTrace } from './requestTrace.ts';

const nest = (depth: number): unknown => (depth === 0 ? 'bottom' : { deeper: nest(depth - 1) });

describe('forJournal: a copy safe to keep', () => {
  it.each<{ name: string; value: unknown; expect: unknown }>([
    { name: 'a string of 2,000 characters is kept whole', value: 'x'.repeat(2000), expect: 'x'.repeat(2000) },
    { name: 'a longer one is cut and says how long it was', value: 'y'.repeat(2001), expect: `${'y'.repeat(2000)}… (2001 chars)` },
    {
      name: 'NaN and infinities become their names (JSON has none)',
      value: [Number.NaN, Infinity, -Infinity, 1.5, 0],
      expect: ['NaN', 'Infinity', '-Infinity', 1.5, 0],
    },
    { name: 'other scalars stay as they are', value: [true, null, 'a', 7], expect: [true, null, 'a', 7] },
    { name: 'six levels of nesting are kept whole', value: nest(6), expect: nest(6) },
    { name: 'a deeper structure stops at "…"', value: nest(8), expect: { deeper: { deeper: { deeper: { deeper: { deeper: { deeper: '…' } } } } } } },
    {
      name: 'arrays keep their first 50 items',
      value: Array.from({ length: 60 }, (_, index) => index),
      expect: Array.from({ length: 50 }, (_, index) => index),
    },
    {
      name: 'objects keep their first 50 keys',
      value: Object.fromEntries(Array.from({ length: 55 }, (_, index) => [`k${index}`, index])),
      expect: Object.fromEntries(Array.from({ length: 50 }, (_, index) => [`k${index}`, index])),
    },
    {
      name: "an image's bytes (base64 `data`) are never kept, only how many; its name and path are",
      value: {
        plan: {
          steps: [
            { op: 'image', source: { data: 'iVBORw0K'.repeat(40), name: 'ridge.png' } },
            { op: 'image', source: { file: '/home/a/b.jpg', data: 'QUJD' } },
          ],
        },
      },
      expect: {
        plan: {
          steps: [
            { op: 'image', source: { data: '(320 characters of image bytes, not kept)', name: 'ridge.png' } },
            { op: 'image', source: { file: '/home/a/b.jpg', data: '(4 characters of image bytes, not kept)' } },
          ],
        },
      },
    },
    { name: 'a __proto__ key is dropped, other keys kept', value: JSON.parse('{"__proto__": {"polluted": true}, "a": 1}'), expect: { a: 1 } },
    {
      name: 'values inside arrays and objects are made safe too',
      value: { list: ['z'.repeat(2001)], n: Number.NaN },
      expect: { list: [`${'z'.repeat(2000)}… (2001 chars)`], n: 'NaN' },
    },
  ])('$name', ({ value, expect: expected }) => {
    const kept = forJournal(value);
    expect(kept).toStrictEqual(expected);
    expect(Object.getPrototypeOf(kept === null || typeof kept !== 'object' || Array.isArray(kept) ? {} : kept)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('depth counts from where the copy starts', () => {
    expect(forJournal({ a: 1 }, 6)).toBe('…');
    expect(forJournal({ a: 1 }, 5)).toEqual({ a: 1 });
    expect(forJournal([1], 5)).toEqual([1]);
  });
});

describe('RequestTrace: the journal record of one request', () => {
  const clockFrom = (times: number[]) => {
    let index = 0;
    return () => times[Math.min(index++, times.length - 1)] as number;
  };

  it('a bare request: only what is known, lifecycle offsets from the trace’s own start, rounded to 0.01 ms', () => {
    // origin 100; prepare at 100.123; decide at 101.5; the record (tookMs) at 103.0049
    const trace = new RequestTrace('context', 'agent', { profile: 'p' }, undefined, clockFrom([100, 100.123, 101.5, 101.9, 103.0049]));
    trace.point('prepare');
    trace.point('decide');
    trace.point('decide'); // the first time counts
    const record = trace.toRecord(success({}));
    expect(record).toStrictEqual({
      id: trace.id,
      at: trace.startedAt,
      tool: 'context',
      via: 'agent',
      profileId: null,
      workspaceId: null,
      request: { profile: 'p' },
      lifecycle: { prepare: 0.12, decide: 1.5 },
      outcome: 'done',
      tookMs: 1.9,
    });
    expect(trace.id).toMatch(/^jr_/);
  });

  it('everything a tool filled in is kept, made safe', () => {
    const trace = new RequestTrace('act', 'schedule', { text: 't'.repeat(2001) }, 'call-1', clockFrom([0]));
    trace.profileId = 'pr_1';
    trace.workspaceId = 'ws_1';
    trace.requestId = 'rq_1';
    trace.decision = { n: Number.NaN };
    trace.steps = [{ step: 0, text: 's'.repeat(2001) }];
    trace.observation = { seen: Infinity };
    trace.explanation = { en: 'e', ko: 'k' } as unknown as RequestTrace['explanation'];
    trace.targets = [{ tabId: 1, site: 'blog', title: 'New post', account: null, role: 'write' }];
    trace.successOutcome = 'scheduled';
    const record = trace.toRecord(success({}));
    expect(record).toMatchObject({
      tool: 'act',
      via: 'schedule',
      callId: 'call-1',
      requestId: 'rq_1',
      profileId: 'pr_1',
      workspaceId: 'ws_1',
      request: { text: `${'t'.repeat(2000)}… (2001 chars)` },
      decision: { n: 'NaN' },
      steps: [{ step: 0, text: `${'s'.repeat(2000)}… (2001 chars)` }],
      observation: { seen: 'Infinity' },
      explanation: { en: 'e', ko: 'k' },
      targets: [{ tabId: 1, site: 'blog', title: 'New post', account: null, role: 'write' }],
      outcome: 'scheduled',
    });
    expect(record).not.toHaveProperty('error');
  });

  it('a refusal keeps its code, message and details (made safe); refused or rolled back', () => {
    const trace = new RequestTrace('act', 'agent', {}, undefined, clockFrom([0]));
    const refusedRecord = trace.toRecord(failure(tetherError('field_changed', 'changed', { at: Number.NaN })));
    expect(refusedRecord.outcome).toBe('refused');
    expect(refusedRecord.error).toStrictEqual({ code: 'field_changed', message: 'changed', details: { at: 'NaN' } });
    expect(trace.toRecord(failure(tetherError('timeout', 'slow'))).error).toStrictEqual({ code: 'timeout', message: 'slow' });
    trace.rolledBack = true;
    expect(trace.toRecord(failure(tetherError('field_changed', 'changed'))).outcome).toBe('rolled_back');
    expect(trace.toRecord(success({})).outcome).toBe('done');
  });

  it('settle hands the outcome to the harness once set, and returns it unchanged', () => {
    const trace = new RequestTrace('inspect', 'ui', {}, undefined, clockFrom([0]));
    const outcome = success({ a: 1 });
    expect(trace.settle(outcome)).toBe(outcome);
    const seen: unknown[] = [];
    trace.onSettle = (settled) => seen.push(settled);
    expect(trace.settle(outcome)).toBe(outcome);
    expect(seen).toEqual([outcome]);
  });

  it('without a clock of its own it measures with performance.now()', () => {
    const trace = new RequestTrace('context', 'agent', {}, undefined);
    const elapsed = trace.elapsed();
    expect(elapsed).toBeGreaterThanOrEqual(0);
    expect(elapsed).toBeLessThan(60_000);
  });
});
