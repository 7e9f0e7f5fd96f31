/**
 * An agent's name reaches the person from the call's envelope, and only the session's own bridge
 * cleans it (mcpServer.ts, agentNameOf): a second client holding the token that relays through the
 * hub or a native host sends the envelope itself. So the worker cleans the name again: no control
 * or format character (bidi overrides) that would let one agent's label pass for another's.
 */
import { describe, expect, it } from 'vitest';
import { agentIdentitySchema, agentNameOf, agentSessionOf, agentWords } from './agentIdentity.ts';

const SESSION = '0123456789abcdef0123456789abcdef';

describe('agentSessionOf: a name from the envelope, as the person reads it', () => {
  it.each([
    ['a bidi override that turns the short id around', 'Claude Code (\u202e', 'Claude Code ('],
    ['a line break and a tab', 'Claude\nCode\t(a3f2)', 'ClaudeCode(a3f2)'],
    ['zero-width and isolate characters', '\u2066Claude\u200b Code\u2069', 'Claude Code'],
    ['nothing but format characters', '\u202e\u200b', 'MCP client'],
  ])('%s', (_what, name, shown) => {
    const identity = agentIdentitySchema.parse({ name, session: SESSION });
    expect(agentSessionOf(identity).name).toBe(shown);
    expect(agentWords(agentSessionOf(identity))).not.toMatch(/[\p{Cc}\p{Cf}]/u);
  });

  it('keeps a clean name as it came (the bridge’s own cleaning, unchanged)', () => {
    expect(agentSessionOf({ name: 'Claude Code', session: SESSION }).name).toBe('Claude Code');
    expect(agentSessionOf({ name: '클로드 코드', session: SESSION }).name).toBe(agentNameOf({ name: '클로드 코드' }));
  });
});
