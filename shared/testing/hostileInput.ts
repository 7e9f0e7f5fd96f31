/**
 * fast-check arbitraries for input an attacker or a confused agent might send: arbitrary JSON,
 * `__proto__` and `constructor` keys, huge strings, deep nesting, NaN and negative ids, and
 * near-valid requests with one thing wrong.
 */
import fc from 'fast-check';

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let level = 0; level < depth; level += 1) value = level % 2 === 0 ? [value] : { deeper: value };
  return value;
}

export const specialValues: unknown[] = [
  JSON.parse('{"__proto__": {"polluted": true}, "profile": "p", "workspace": "w"}'),
  JSON.parse('{"constructor": {"prototype": {"polluted": true}}}'),
  { profile: 'x'.repeat(1_000_000), workspace: 'w' },
  { profile: 'p', workspace: 'w', handle: 'th_' + 'A'.repeat(24), plan: { steps: [{ op: 'fill', field: 'body', text: 'y'.repeat(300_000) }] } },
  nested(2000),
  { profile: 'p', workspace: 'w', destination: { tabId: -1 } },
  { profile: 'p', workspace: 'w', destination: { tabId: Number.NaN } },
  { profile: 'p', workspace: 'w', destination: { tabId: 1e300 } },
  { profile: 'p', workspace: 'w', references: Array.from({ length: 500 }, () => ({ site: 'cafe' })) },
  { profile: '', workspace: '' },
  { profile: null, workspace: undefined },
  [],
  'context',
  42,
  null,
];

export const hostileJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: fc.jsonValue() },
  { weight: 2, arbitrary: fc.constantFrom(...specialValues) },
  {
    weight: 4,
    arbitrary: fc.record(
      {
        profile: fc.oneof(fc.string(), fc.integer(), fc.constant('__proto__')),
        workspace: fc.oneof(fc.string(), fc.integer({ min: -5, max: 5 })),
        handle: fc.oneof(fc.string(), fc.constant('th_AAAAAAAAAAAAAAAAAAAAAAAA')),
        destination: fc.oneof(fc.jsonValue(), fc.record({ site: fc.string(), tabId: fc.integer({ min: -10, max: 10 }) }, { requiredKeys: [] })),
        references: fc.oneof(fc.jsonValue(), fc.array(fc.record({ site: fc.string() }), { maxLength: 25 })),
        plan: fc.oneof(
          fc.jsonValue(),
          fc.record({
            steps: fc.array(
              fc.record(
                { op: fc.constantFrom('fill', 'append', 'clear', 'select', 'click', 'navigate'), field: fc.string(), text: fc.string() },
                { requiredKeys: ['op'] },
              ),
              { maxLength: 60 },
            ),
          }),
        ),
        read: fc.oneof(fc.jsonValue(), fc.array(fc.string(), { maxLength: 30 })),
        at: fc.oneof(
          fc.string(),
          fc.date({ noInvalidDate: true }).map((date) => date.toISOString()),
        ),
        requestId: fc.oneof(fc.string(), fc.integer()),
      },
      { requiredKeys: [] },
    ),
  },
);

export const hostileTool: fc.Arbitrary<unknown> = fc.oneof(fc.constantFrom('context', 'resolve', 'inspect', 'act'), fc.jsonValue(), fc.constant('__proto__'));
