import { describe, expect, it } from 'vitest';
import { shortIdOf, type AgentSession } from '../../shared/agent/agentIdentity.ts';
import { AGENT_ID_TABLE_MAX, distinctLabel, type AgentIdTable } from './agentLabels.ts';

/** Two session keys whose four-character ids are the same, found as an attacker would: by drawing keys. */
function collidingKeys(): [string, string] {
  const seen = new Map<string, string>();
  for (let n = 0; ; n += 1) {
    const key = n.toString(16).padStart(32, '0');
    const id = shortIdOf(key);
    const earlier = seen.get(id);
    if (earlier !== undefined) return [earlier, key];
    seen.set(id, key);
  }
}

const [FIRST, SECOND] = collidingKeys();
const agent = (session: string, name = 'Claude Code'): AgentSession => ({ name, id: shortIdOf(session), session });

describe('distinctLabel: no two keys are shown with the same id', () => {
  it('the keys drawn really collide (the attack this guards against)', () => {
    expect(FIRST).not.toBe(SECOND);
    expect(shortIdOf(FIRST)).toBe(shortIdOf(SECOND));
  });

  it.each([
    ['a key seen for the first time keeps its four characters', {}, FIRST, shortIdOf(FIRST)],
    ['the same key again keeps them', { [shortIdOf(FIRST)]: { session: FIRST, at: 1 } }, FIRST, shortIdOf(FIRST)],
  ] as [string, AgentIdTable, string, string][])('%s', (_, table, session, shown) => {
    const { agent: labelled, table: next } = distinctLabel(table, agent(session), 5);
    expect(labelled.id).toBe(shown);
    expect(next[shown]).toEqual({ session, at: 5 });
  });

  it('a later key that derives the same id is shown with more characters, and keeps them', () => {
    const first = distinctLabel({}, agent(FIRST), 1);
    const second = distinctLabel(first.table, agent(SECOND), 2);
    expect(second.agent.id).not.toBe(first.agent.id);
    expect(second.agent.id.startsWith(`${shortIdOf(SECOND)}-`)).toBe(true);
    expect(second.agent.id).toMatch(/^[0-9a-z]{4}-[0-9a-z]{4}$/);
    expect(second.agent.session).toBe(SECOND);
    // Both keep their ids on later requests, in either order.
    const again = distinctLabel(second.table, agent(SECOND), 3);
    expect(again.agent.id).toBe(second.agent.id);
    expect(distinctLabel(again.table, agent(FIRST), 4).agent.id).toBe(first.agent.id);
  });

  it('the name is the agent’s: only the id changes', () => {
    const first = distinctLabel({}, agent(FIRST, 'Claude Code'), 1);
    const second = distinctLabel(first.table, agent(SECOND, 'Claude Code'), 2);
    expect(second.agent.name).toBe('Claude Code');
  });

  it(`keeps the ${AGENT_ID_TABLE_MAX} most recently seen ids`, () => {
    let table: AgentIdTable = {};
    for (let n = 0; n <= AGENT_ID_TABLE_MAX; n += 1) table = distinctLabel(table, agent(`f${n.toString(16).padStart(31, '0')}`), n).table;
    expect(Object.keys(table)).toHaveLength(AGENT_ID_TABLE_MAX);
    expect(Object.values(table).some((entry) => entry.at === 0)).toBe(false);
  });
});
