import { describe, expect, it } from 'vitest';
import { checkAccountNow } from '../../shared/model/checkAccount.ts';
import { commitKey } from '../../shared/page/documentKey.ts';
import type { TabMeta, Workspace } from '../../shared/model/targetModel.ts';
import { binding, PROFILE, tab, workspace } from '../../shared/testing/fixtures.ts';
import { revalidateBinding, type ChangedAspect, type HostSnapshot } from './revalidateBinding.ts';

const bound = tab(7, 'https://blog.example/write', 'New post');
const members = workspace([bound], ['https://blog.example']);

interface Case {
  name: string;
  tab?: TabMeta | null;
  workspace?: Workspace | null;
  profileId?: string;
  changed: ChangedAspect[] | null;
}

const cases: Case[] = [
  { name: 'nothing changed → ok', changed: null },
  { name: 'only the fragment changed → ok (not a new page)', tab: { ...bound, url: `${bound.url}#section` }, changed: null },
  { name: 'tab closed', tab: null, changed: ['tab'] },
  { name: 'navigated or reloaded (new document)', tab: { ...bound, documentId: 'doc-new' }, changed: ['document'] },
  { name: 'discarded (no document)', tab: { ...bound, discarded: true, documentId: null }, changed: ['document'] },
  { name: 'history.pushState (same document, new URL)', tab: { ...bound, url: 'https://blog.example/write/2' }, changed: ['url'] },
  {
    name: 'another site in the tab',
    tab: { ...bound, url: 'https://evil.example/write', documentId: 'doc-evil' },
    changed: ['document', 'origin'],
  },
  { name: 'removed from the workspace', workspace: { ...members, tabIds: [] }, changed: ['membership'] },
  { name: 'workspace no longer shared', workspace: { ...members, shared: false }, changed: ['workspace'] },
  { name: 'workspace deleted', workspace: null, changed: ['workspace'] },
  { name: 'another profile', profileId: 'pr_other', changed: ['profile'] },
  { name: 'another tab behind the same id', tab: { ...bound, tabId: 8 }, changed: ['tab'] },
];

describe('revalidateBinding (R8)', () => {
  it.each(cases)('$name', (testCase) => {
    const snapshot: HostSnapshot = {
      profileId: testCase.profileId ?? PROFILE,
      workspace: testCase.workspace === undefined ? members : testCase.workspace,
      tab: testCase.tab === undefined ? bound : testCase.tab,
    };
    const outcome = revalidateBinding(binding(bound), snapshot);
    if (testCase.changed === null) {
      expect(outcome.ok).toBe(true);
      return;
    }
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.error.code).toBe('context_changed');
    expect(outcome.error.details?.changed).toEqual(testCase.changed);
    expect(outcome.error.message).toMatch(/Resolve the target again/);
  });

  it('names every change at once', () => {
    const outcome = revalidateBinding(binding(bound), {
      profileId: 'pr_other',
      workspace: { ...members, shared: false, tabIds: [] },
      tab: { ...bound, documentId: 'doc-2', url: 'https://blog.example/other' },
    });
    expect(!outcome.ok && outcome.error.details?.changed).toEqual(['profile', 'workspace', 'membership', 'document', 'url']);
  });
});

describe('revalidateBinding where the browser has no documentIds (Firefox 140: a key minted at each top-frame commit)', () => {
  const keyed = tab(7, 'https://blog.example/write', 'New post', { documentId: commitKey(7, 'c_first') });
  const keyedMembers = workspace([keyed], ['https://blog.example']);
  const bound = binding(keyed, { pageInstance: 'pg_seen' });
  const check = (now: TabMeta | null, pinned = bound) => revalidateBinding(pinned, { profileId: PROFILE, workspace: keyedMembers, tab: now });
  const changedBy = (outcome: ReturnType<typeof check>) => (outcome.ok ? null : outcome.error.details?.changed);

  it.each([
    { name: 'nothing committed since → ok (the page checks its instance)', now: keyed, changed: null },
    {
      name: 'navigated: a commit minted a new key',
      now: { ...keyed, url: 'https://blog.example/other', documentId: commitKey(7, 'c_next') },
      changed: ['document', 'url'],
    },
    { name: 'reloaded: same address, new key', now: { ...keyed, documentId: commitKey(7, 'c_reload') }, changed: ['document'] },
    { name: 'restored from the back/forward cache: it commits again, new key', now: { ...keyed, documentId: commitKey(7, 'c_back') }, changed: ['document'] },
    { name: 'closed', now: null, changed: ['tab'] },
    { name: 'replaced (another tab id)', now: { ...keyed, tabId: 9, documentId: commitKey(9, 'c_first') }, changed: ['tab'] },
  ])('$name', ({ now, changed }) => {
    expect(changedBy(check(now))).toEqual(changed);
    expect(check(now).ok).toBe(changed === null);
  });

  it('a binding with no page instance never reaches a page: nothing else can tell the page is the bound one', () => {
    expect(changedBy(check(keyed, { ...bound, pageInstance: null }))).toEqual(['document']);
  });

  it('a browser documentId needs no page instance to address its document', () => {
    expect(
      revalidateBinding(
        { ...binding(tab(7, 'https://blog.example/write', 'New post')), pageInstance: null },
        { profileId: PROFILE, workspace: members, tab: tab(7, 'https://blog.example/write', 'New post') },
      ).ok,
    ).toBe(true);
  });
});

describe('checkAccountNow (R6 at execution)', () => {
  const expected = { origin: 'https://blog.example', account: 'alice' };
  it.each([
    { name: 'same account → ok', seen: { state: 'signed_in', account: 'alice' }, code: null },
    { name: 'signed out → not_signed_in', seen: { state: 'signed_out', account: null }, code: 'not_signed_in' },
    { name: 'another account → account_mismatch', seen: { state: 'signed_in', account: 'bob' }, code: 'account_mismatch' },
    { name: 'signed in, but no account name shown → account_mismatch', seen: { state: 'signed_in', account: null }, code: 'account_mismatch' },
    { name: 'cannot tell (the page hides who is signed in) → not_signed_in, fail closed', seen: { state: 'unknown', account: null }, code: 'not_signed_in' },
    { name: 'cannot tell, even with an account-like text → not_signed_in', seen: { state: 'unknown', account: 'alice' }, code: 'not_signed_in' },
  ] as const)('$name', ({ seen, code }) => {
    const outcome = checkAccountNow(expected, seen);
    expect(outcome.ok ? null : outcome.error.code).toBe(code);
    if (!outcome.ok) expect(outcome.error.details?.state).toBe(seen.state);
  });

  it('says in the details that the state is unknown', () => {
    const outcome = checkAccountNow(expected, { state: 'unknown', account: null });
    expect(outcome.ok ? null : outcome.error.details).toEqual({ expected: 'alice', seen: null, state: 'unknown' });
  });

  it.each([
    { name: 'whoever is signed in → ok', seen: { state: 'signed_in', account: 'bob' }, ok: true },
    { name: 'cannot tell → ok (nothing to compare with)', seen: { state: 'unknown', account: null }, ok: true },
    { name: 'signed out → not_signed_in', seen: { state: 'signed_out', account: null }, ok: false },
  ] as const)('a binding made without an account: $name', ({ seen, ok }) => {
    expect(checkAccountNow({ origin: 'x', account: null }, seen).ok).toBe(ok);
  });
});

describe('revalidateBinding: what the refusal says', () => {
  const refusal = (snapshot: Partial<HostSnapshot>) => {
    const outcome = revalidateBinding(binding(bound), { profileId: PROFILE, workspace: members, tab: bound, ...snapshot });
    if (outcome.ok) throw new Error('expected a refusal');
    return outcome.error;
  };

  it.each<{ name: string; snapshot: Partial<HostSnapshot>; changed: ChangedAspect[]; words: string }>([
    { name: 'another profile', snapshot: { profileId: 'pr_other' }, changed: ['profile'], words: 'the browser profile is not the one the handle was made in' },
    {
      name: 'another workspace id',
      snapshot: { workspace: { ...members, id: 'ws_other' } },
      changed: ['workspace'],
      words: 'the workspace was deleted or is no longer shared with agents',
    },
    {
      name: 'removed from the workspace',
      snapshot: { workspace: { ...members, tabIds: [] } },
      changed: ['membership'],
      words: 'the tab was removed from the workspace',
    },
    { name: 'closed', snapshot: { tab: null }, changed: ['tab'], words: 'the tab was closed' },
    {
      name: 'discarded, document id kept',
      snapshot: { tab: { ...bound, discarded: true } },
      changed: ['document'],
      words: 'the page was navigated, reloaded or discarded',
    },
    {
      name: 'no document id now',
      snapshot: { tab: { ...bound, documentId: null } },
      changed: ['document'],
      words: 'the page was navigated, reloaded or discarded',
    },
    { name: 'another site', snapshot: { tab: { ...bound, url: 'https://evil.example/write' } }, changed: ['origin'], words: 'the tab now shows another site' },
    { name: 'another address', snapshot: { tab: { ...bound, url: 'https://blog.example/other' } }, changed: ['url'], words: 'the page address changed' },
  ])('$name → changed $changed, in words', ({ snapshot, changed, words }) => {
    const error = refusal(snapshot);
    expect(error.details?.changed).toEqual(changed);
    expect(error.message).toBe(`Refused: ${words}. Resolve the target again.`);
  });

  it('several changes are named together, and the details say what was expected and what is there now', () => {
    const now = { ...bound, url: 'https://evil.example/x', documentId: 'doc-new' };
    const error = refusal({ tab: now, workspace: { ...members, tabIds: [] } });
    expect(error.message).toBe(
      'Refused: the tab was removed from the workspace; the page was navigated, reloaded or discarded; the tab now shows another site. Resolve the target again.',
    );
    expect(error.details).toStrictEqual({
      changed: ['membership', 'document', 'origin'],
      expected: { tabId: 7, url: bound.url, documentId: bound.documentId, workspaceId: 'ws_test' },
      now: { tabId: 7, url: 'https://evil.example/x', documentId: 'doc-new' },
    });
    expect(refusal({ tab: null }).details?.now).toBeNull();
  });
});
