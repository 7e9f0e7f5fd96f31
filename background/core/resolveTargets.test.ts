import { describe, expect, it } from 'vitest';
import type { ErrorCode } from '../../shared/errors.ts';
import type { Program, TabMeta, TargetBinding, TargetSpec, Workspace } from '../../shared/model/targetModel.ts';
import { binding, PROFILE, program, tab, workspace } from '../../shared/testing/fixtures.ts';
import { resolveTargets, type ResolveInput } from './resolveTargets.ts';

const BLOG = 'https://blog.example';
const CAFE = 'https://cafe.example';
const NOTES = 'https://notes.example';

const blogTab = tab(1, `${BLOG}/write`, 'New post');
const cafeTab = tab(2, `${CAFE}/posts/1`, 'Weekly notes: spring market');
const notesTab = tab(3, `${NOTES}/`, 'Notes');
const cafeTab2 = tab(4, `${CAFE}/posts/3`, 'Weekly notes: autumn fair');
/** A second tab at the blog tab's very address (the person opened the editor twice). */
const blogTwin = tab(5, `${BLOG}/write`, 'New post');

interface Case {
  name: string;
  tabs?: TabMeta[];
  writable?: string[];
  destination?: TargetSpec;
  references?: TargetSpec[];
  readOnly?: boolean;
  requestTimeTabId?: number | null;
  program?: Program | null;
  programs?: Program[];
  busyTabIds?: number[];
  handles?: Record<string, TargetBinding>;
  workspaceExtra?: Partial<Workspace>;
  expect: { write: number | null; references?: number[]; rule?: string } | { error: ErrorCode; details?: Record<string, unknown> };
}

const blogProgram = program('pg_blog', 'weekly post', binding(blogTab));

const cases: Case[] = [
  {
    name: 'R2: no destination → the request-time tab',
    requestTimeTabId: 1,
    expect: { write: 1, rule: 'request_time_tab' },
  },
  {
    name: 'R3: a named platform → its unique tab, not the request-time tab',
    destination: { site: 'blog' },
    requestTimeTabId: 2,
    expect: { write: 1, rule: 'named_in_request' },
  },
  {
    name: 'R3: a named platform in Korean → the same tab',
    destination: { site: '블로그' },
    expect: { write: 1, rule: 'named_in_request' },
  },
  {
    name: 'R3: a host name → its tab',
    destination: { site: 'blog.example' },
    expect: { write: 1 },
  },
  {
    name: 'R3: two matching tabs → ambiguous_target listing both',
    tabs: [blogTab, cafeTab, cafeTab2],
    writable: [CAFE],
    destination: { site: 'cafe' },
    expect: {
      error: 'ambiguous_target',
      details: {
        candidates: [
          { tabId: 2, title: cafeTab.title, url: cafeTab.url },
          { tabId: 4, title: cafeTab2.title, url: cafeTab2.url },
        ],
      },
    },
  },
  {
    name: 'R3: a title narrows an ambiguous site to one tab',
    tabs: [blogTab, cafeTab, cafeTab2],
    writable: [CAFE],
    destination: { site: 'cafe', title: 'autumn' },
    expect: { write: 4 },
  },
  {
    name: 'R3: no matching tab → target_not_found (and nothing to open)',
    destination: { site: 'shop' },
    expect: { error: 'target_not_found' },
  },
  {
    name: 'R3: an exact url → its tab',
    destination: { url: `${BLOG}/write` },
    expect: { write: 1 },
  },
  {
    name: 'R3: two tabs at one exact address → ambiguous_target listing both, never the first',
    tabs: [blogTab, cafeTab, blogTwin],
    destination: { url: `${BLOG}/write` },
    expect: {
      error: 'ambiguous_target',
      details: {
        role: 'write',
        candidates: [
          { tabId: 1, title: blogTab.title, url: blogTab.url },
          { tabId: 5, title: blogTwin.title, url: blogTwin.url },
        ],
      },
    },
  },
  {
    name: 'R3: two tabs at one exact address, named with a fragment → ambiguous_target listing both',
    tabs: [blogTwin, cafeTab, blogTab],
    destination: { url: `${BLOG}/write#top` },
    expect: { error: 'ambiguous_target', details: { candidates: [{ tabId: 5 }, { tabId: 1 }] } },
  },
  {
    name: 'R4: a reference at an address two tabs show → ambiguous_target (reference role) listing both',
    tabs: [blogTab, cafeTab, tab(6, `${CAFE}/posts/1`, 'Weekly notes (copy)')],
    destination: { site: 'blog' },
    references: [{ url: `${CAFE}/posts/1` }],
    expect: { error: 'ambiguous_target', details: { role: 'reference', candidates: [{ tabId: 2 }, { tabId: 6 }] } },
  },
  {
    name: 'R3: two tabs at one exact address, a title tells them apart → that tab',
    tabs: [blogTab, cafeTab, tab(5, `${BLOG}/write`, 'Second draft')],
    destination: { url: `${BLOG}/write`, title: 'second' },
    expect: { write: 5 },
  },
  {
    name: 'R3: a title narrows by words, whatever their case and surrounding spaces',
    tabs: [blogTab, cafeTab, cafeTab2],
    writable: [CAFE],
    destination: { site: 'cafe', title: '  AUTUMN ' },
    expect: { write: 4 },
  },
  {
    name: 'R3: nothing matches a tab id → target_not_found naming it, and listing the tabs there are',
    destination: { tabId: 99 },
    expect: {
      error: 'target_not_found',
      details: {
        role: 'write',
        named: 'tab 99',
        tabs: [
          { tabId: 1, title: blogTab.title, url: blogTab.url },
          { tabId: 2, title: cafeTab.title, url: cafeTab.url },
          { tabId: 3, title: notesTab.title, url: notesTab.url },
        ],
      },
    },
  },
  {
    name: 'R3: nothing matches a url and title → target_not_found naming both',
    destination: { url: `${BLOG}/nothere`, title: 'Draft' },
    expect: { error: 'target_not_found', details: { named: `${BLOG}/nothere titled "Draft"` } },
  },
  {
    name: 'R3: nothing matches a title alone → target_not_found naming it',
    destination: { title: 'Recipes' },
    expect: { error: 'target_not_found', details: { named: ' titled "Recipes"' } },
  },
  {
    name: 'R3: a site and title match nothing → target_not_found naming both',
    destination: { site: 'shop', title: 'Cart' },
    expect: { error: 'target_not_found', details: { named: 'shop titled "Cart"' } },
  },
  {
    name: 'R4: the same tab named twice as a reference is one reference',
    readOnly: true,
    references: [{ site: 'cafe' }, { url: `${CAFE}/posts/1` }, { tabId: 2 }],
    expect: { write: null, references: [2] },
  },
  {
    name: 'R4: two references to two tabs are both kept, in order',
    readOnly: true,
    references: [{ tabId: 3 }, { site: 'cafe' }],
    expect: { write: null, references: [3, 2] },
  },
  {
    name: 'R4: role_conflict says which tab',
    writable: [BLOG, CAFE],
    destination: { tabId: 2 },
    references: [{ site: 'cafe' }],
    expect: { error: 'role_conflict', details: { tabId: 2, title: cafeTab.title, url: cafeTab.url } },
  },
  {
    name: 'R5: read_only_target says which site and tab',
    destination: { tabId: 3 },
    expect: { error: 'read_only_target', details: { origin: NOTES, tabId: 3 } },
  },
  {
    name: 'R5: a site the workspace does not list at all is not writable (and is no candidate)',
    tabs: [blogTab, cafeTab],
    workspaceExtra: { sites: { [CAFE]: { writable: true, publishWithoutApproval: false } } },
    requestTimeTabId: 2,
    expect: { write: 2, rule: 'request_time_tab' },
  },
  {
    name: 'R7: another program on another tab does not make this one busy',
    programs: [program('pg_notes', 'notes', binding(notesTab))],
    destination: { site: 'blog' },
    expect: { write: 1 },
  },
  {
    name: 'R7: target_busy (an act running) says which tab',
    busyTabIds: [1],
    destination: { site: 'blog' },
    expect: { error: 'target_busy', details: { tabId: 1 } },
  },
  {
    name: 'a handle made in another profile → invalid_handle',
    handles: { th_elsewhere: binding(blogTab, { profileId: 'pr_other' }) },
    destination: { handle: 'th_elsewhere' },
    expect: { error: 'invalid_handle' },
  },
  {
    name: 'R2: the request-time tab outside the workspace’s sites is not chosen → missing_context',
    tabs: [blogTab, tab(9, 'https://elsewhere.example/', 'Elsewhere')],
    workspaceExtra: { tabIds: [1, 9], sites: { [BLOG]: { writable: true, publishWithoutApproval: false } } },
    requestTimeTabId: 9,
    expect: { error: 'missing_context' },
  },
  {
    name: 'R3: a url prefix → the tab under it',
    destination: { url: `${BLOG}/wr` },
    expect: { write: 1 },
  },
  {
    name: 'R3: a tabId in scope → that tab',
    destination: { tabId: 1 },
    expect: { write: 1 },
  },
  {
    name: 'R3: a tabId outside the workspace → target_not_found',
    destination: { tabId: 99 },
    expect: { error: 'target_not_found' },
  },
  {
    name: 'R4: "write on the blog using the cafe" → blog is written, cafe is read',
    destination: { site: 'blog' },
    references: [{ site: 'cafe' }],
    expect: { write: 1, references: [2], rule: 'named_in_request' },
  },
  {
    name: 'R4: one tab asked for as both roles → role_conflict',
    writable: [BLOG, CAFE],
    destination: { site: 'cafe' },
    references: [{ url: `${CAFE}/posts/1` }],
    expect: { error: 'role_conflict' },
  },
  {
    name: 'R4: the request-time tab named as a reference → role_conflict',
    requestTimeTabId: 2,
    writable: [BLOG, CAFE],
    references: [{ site: 'cafe' }],
    expect: { error: 'role_conflict' },
  },
  {
    name: 'R4: a reference that matches nothing → target_not_found (reference role)',
    destination: { site: 'blog' },
    references: [{ site: 'forum' }],
    expect: { error: 'target_not_found', details: { role: 'reference' } },
  },
  {
    name: 'R4: a reference that names nothing → invalid_request',
    destination: { site: 'blog' },
    references: [{}],
    expect: { error: 'invalid_request' },
  },
  {
    name: 'R5: a site the workspace does not allow writing → read_only_target',
    destination: { site: 'cafe' },
    expect: { error: 'read_only_target' },
  },
  {
    name: 'R2: an earlier program’s target does not override the destination this request names',
    writable: [BLOG, NOTES],
    program: blogProgram,
    programs: [blogProgram],
    destination: { site: 'notes' },
    expect: { write: 3, rule: 'named_in_request' },
  },
  {
    name: 'R2: a continued program keeps its target when the view (request-time tab) moved elsewhere',
    program: blogProgram,
    programs: [blogProgram],
    requestTimeTabId: 2,
    expect: { write: 1, rule: 'program_target' },
  },
  {
    name: 'R8: a continued program whose tab closed → context_changed, never the request-time tab',
    tabs: [cafeTab, notesTab],
    writable: [NOTES],
    program: blogProgram,
    programs: [blogProgram],
    requestTimeTabId: 3,
    expect: { error: 'context_changed', details: { program: 'pg_blog' } },
  },
  {
    name: 'R2: an explicit handle beats a named site',
    writable: [BLOG, NOTES],
    handles: { th_known: binding(notesTab) },
    destination: { handle: 'th_known' },
    expect: { write: 3, rule: 'explicit_handle' },
  },
  {
    name: 'an unknown handle → invalid_handle',
    destination: { handle: 'th_forged' },
    expect: { error: 'invalid_handle' },
  },
  {
    name: 'a handle from another workspace → invalid_handle',
    handles: { th_other: binding(blogTab, { workspaceId: 'ws_other' }) },
    destination: { handle: 'th_other' },
    expect: { error: 'invalid_handle' },
  },
  {
    name: 'a handle whose page navigated → context_changed',
    handles: { th_old: binding(blogTab, { documentId: 'doc-old' }) },
    destination: { handle: 'th_old' },
    expect: { error: 'context_changed', details: { changed: ['document'] } },
  },
  {
    name: 'R7: another program’s target → target_busy',
    programs: [blogProgram],
    destination: { site: 'blog' },
    expect: { error: 'target_busy', details: { program: 'pg_blog' } },
  },
  {
    name: 'R7: an act running on the tab → target_busy',
    busyTabIds: [1],
    destination: { site: 'blog' },
    expect: { error: 'target_busy' },
  },
  {
    name: 'R9: no destination, no program, no active tab in the workspace → missing_context naming destination',
    requestTimeTabId: null,
    expect: { error: 'missing_context', details: { missing: ['destination'] } },
  },
  {
    name: 'read only: references only, no write target',
    readOnly: true,
    references: [{ site: 'cafe' }],
    expect: { write: null, references: [2] },
  },
  {
    name: 'read only without references → missing_context naming references',
    readOnly: true,
    expect: { error: 'missing_context', details: { missing: ['references'] } },
  },
];

function input(testCase: Case): ResolveInput {
  const tabs = testCase.tabs ?? [blogTab, cafeTab, notesTab];
  return {
    profileId: PROFILE,
    workspace: workspace(tabs, testCase.writable ?? [BLOG], testCase.workspaceExtra),
    tabs,
    request: { destination: testCase.destination, references: testCase.references ?? [], readOnly: testCase.readOnly === true },
    requestTimeTabId: testCase.requestTimeTabId === undefined ? 1 : testCase.requestTimeTabId,
    program: testCase.program ?? null,
    programs: testCase.programs ?? [],
    busyTabIds: testCase.busyTabIds ?? [],
    handleBindings: testCase.handles ?? {},
  };
}

describe('resolveTargets', () => {
  it.each(cases)('$name', (testCase) => {
    const outcome = resolveTargets(input(testCase));
    if ('error' in testCase.expect) {
      expect(outcome.ok).toBe(false);
      if (outcome.ok) return;
      expect(outcome.error.code).toBe(testCase.expect.error);
      expect(outcome.error.message.length).toBeGreaterThan(10);
      if (testCase.expect.details) expect(outcome.error.details).toMatchObject(testCase.expect.details);
      return;
    }
    expect(outcome.ok).toBe(true);
    if (!outcome.ok) return;
    expect(outcome.value.write?.tab.tabId ?? null).toBe(testCase.expect.write);
    if (testCase.expect.write !== null) expect(outcome.value.write?.role).toBe('write');
    if (testCase.expect.rule) expect(outcome.value.write?.rule).toBe(testCase.expect.rule);
    expect(outcome.value.references.map((reference) => reference.tab.tabId)).toEqual(testCase.expect.references ?? []);
    for (const reference of outcome.value.references) expect(reference.role).toBe('reference');
  });

  it('covers every rule it implements with at least one case', () => {
    const names = cases.map((item) => item.name).join('\n');
    for (const rule of ['R2', 'R3', 'R4', 'R5', 'R7', 'R8', 'R9']) expect(names).toContain(`${rule}:`);
  });

  it('changing the view does not move a program’s target', () => {
    const base = input({ name: 'view', program: blogProgram, programs: [blogProgram], expect: { write: 1 } });
    const targets = [1, 2, 3, null].map((view) => {
      const outcome = resolveTargets({ ...base, requestTimeTabId: view });
      return outcome.ok ? outcome.value.write?.tab.tabId : outcome.error.code;
    });
    expect(targets).toEqual([1, 1, 1, 1]);
  });

  describe('a member showing a site the workspace does not have (it navigated there) is no candidate', () => {
    // The worker removes such a tab when it sees the navigation; until then the resolver must not offer it.
    const wandered = tab(2, 'https://private.example/inbox', 'Inbox');
    const base = (request: Partial<ResolveInput['request']>, requestTimeTabId: number | null = null): ResolveInput => ({
      ...input({ name: 'wandered', expect: { write: 1 } }),
      tabs: [blogTab, wandered, notesTab],
      request: { references: [], readOnly: false, ...request },
      requestTimeTabId,
    });
    it.each([
      { name: 'by tab id', references: [{ tabId: 2 }] },
      { name: 'by its new site', references: [{ site: 'private.example' }] },
      { name: 'by its new url', references: [{ url: 'https://private.example/inbox' }] },
      { name: 'by its title', references: [{ title: 'Inbox' }] },
    ])('named as a reference $name → target_not_found', ({ references }) => {
      const outcome = resolveTargets(base({ references, readOnly: true }));
      expect(outcome.ok ? 'ok' : outcome.error.code).toBe('target_not_found');
      expect(outcome.ok ? [] : (outcome.error.details?.tabs as Array<{ tabId: number }>).map((item) => item.tabId)).toEqual([1, 3]);
    });
    it('as the request-time tab → not chosen (missing_context)', () => {
      const outcome = resolveTargets(base({}, 2));
      expect(outcome.ok ? 'ok' : outcome.error.code).toBe('missing_context');
    });
  });

  describe('a member that went to another site of its workspace (a page can send its tab there) is no candidate', () => {
    // The reference cafe tab ran `location.href = <blog>/attacker-chosen`. The worker takes it out
    // of the workspace when it sees the navigation (workspaces.ts); until then the resolver must
    // not offer it either: it is a candidate only on the site it was last seen at.
    const sent = tab(2, `${BLOG}/attacker-chosen?prefill=1`, 'Blog page the cafe chose');
    const base = (request: Partial<ResolveInput['request']>, requestTimeTabId: number | null = null): ResolveInput => ({
      ...input({ name: 'sent', writable: [BLOG], expect: { write: 1 } }),
      tabs: [blogTab, sent, notesTab],
      request: { references: [], readOnly: false, ...request },
      requestTimeTabId,
    });
    const outcome = (request: Partial<ResolveInput['request']>, requestTimeTabId: number | null = null) => {
      const resolved = resolveTargets(base(request, requestTimeTabId));
      return resolved.ok ? { write: resolved.value.write?.tab.tabId ?? null, rule: resolved.value.write?.rule } : { error: resolved.error.code };
    };
    it.each([
      {
        name: 'the blog named as destination → the blog tab the person had, not ambiguous_target',
        request: { destination: { site: 'blog' } },
        expect: { write: 1, rule: 'named_in_request' },
      },
      { name: 'its new address as destination → target_not_found', request: { destination: { url: sent.url } }, expect: { error: 'target_not_found' } },
      { name: 'its tab id as destination → target_not_found', request: { destination: { tabId: 2 } }, expect: { error: 'target_not_found' } },
      { name: 'its title as destination → target_not_found', request: { destination: { title: 'the cafe chose' } }, expect: { error: 'target_not_found' } },
      {
        name: 'no destination, the person looking at it → missing_context (not request_time_tab)',
        request: {},
        requestTimeTabId: 2,
        expect: { error: 'missing_context' },
      },
      { name: 'as a reference by tab id → target_not_found', request: { references: [{ tabId: 2 }], readOnly: true }, expect: { error: 'target_not_found' } },
    ])('$name', ({ request, requestTimeTabId, expect: expected }) => {
      expect(outcome(request, requestTimeTabId ?? null)).toEqual(expected);
    });
    it('navigation within its own site changes nothing: still a candidate, found by its new address', () => {
      const moved = tab(2, `${CAFE}/posts/9`, 'Another cafe post');
      const resolved = resolveTargets({ ...base({ references: [{ url: moved.url }], readOnly: true }), tabs: [blogTab, moved, notesTab] });
      expect(resolved.ok ? resolved.value.references.map((item) => item.tab.tabId) : resolved.error.code).toEqual([2]);
    });
    it('a member with no remembered address is no candidate (unknown state refuses)', () => {
      const resolved = resolveTargets({
        ...base({ destination: { site: 'cafe' } }),
        tabs: [blogTab, cafeTab],
        workspace: workspace([blogTab, cafeTab], [BLOG, CAFE], { memberUrls: { '1': blogTab.url } }),
      });
      expect(resolved.ok ? 'ok' : resolved.error.code).toBe('target_not_found');
    });
  });

  describe('one request after another: the answer follows the tabs and the workspace as they are now', () => {
    // The resolver remembers each tab's origin between requests (tabIndex.ts); none of that may show.
    const base = input({ name: 'again', destination: { site: 'blog' }, writable: [BLOG, CAFE], expect: { write: 1 } });
    const written = (next: Partial<ResolveInput>) => {
      const outcome = resolveTargets({ ...base, ...next });
      return outcome.ok ? outcome.value.write?.tab.tabId : outcome.error.code;
    };
    it.each<{ name: string; next: Partial<ResolveInput>; expect: number | string }>([
      {
        name: 'the blog tab went to the cafe and a member on the blog was added → that member',
        next: {
          tabs: [tab(1, `${CAFE}/posts/9`, 'Market'), cafeTab, tab(3, `${BLOG}/write`, 'New post')],
          workspace: workspace([blogTab, cafeTab, tab(3, `${BLOG}/write`, 'New post')], [BLOG, CAFE]),
        },
        expect: 3,
      },
      {
        name: 'the blog tab went to the cafe and the notes tab to the blog → neither is offered (each left its site)',
        next: { tabs: [tab(1, `${CAFE}/posts/9`, 'Market'), cafeTab, tab(3, `${BLOG}/write`, 'New post')] },
        expect: 'target_not_found',
      },
      {
        name: 'the blog tab went to another blog page → still that tab, found by its new address',
        next: {
          tabs: [tab(1, `${BLOG}/posts/7`, 'Draft'), cafeTab, notesTab],
          request: { destination: { url: `${BLOG}/posts/7` }, references: [], readOnly: false },
        },
        expect: 1,
      },
      {
        name: 'a title narrowing the site follows the new title',
        next: {
          request: { destination: { site: 'cafe', title: 'autumn' }, references: [], readOnly: false },
          tabs: [blogTab, tab(2, `${CAFE}/posts/1`, 'Autumn fair'), notesTab],
        },
        expect: 2,
      },
      {
        name: 'the workspace no longer has the blog → target_not_found',
        next: { workspace: workspace([cafeTab, notesTab], [CAFE]) },
        expect: 'target_not_found',
      },
    ])('$name', ({ next, expect: expected }) => {
      expect(written({})).toBe(1);
      expect(written(next)).toBe(expected);
      expect(written({})).toBe(1);
    });
  });

  it('an active tab outside the workspace is never the request-time tab', () => {
    const base = input({ name: 'scope', expect: { write: 1 } });
    const outcome = resolveTargets({ ...base, requestTimeTabId: 50 });
    expect(outcome.ok ? outcome.value.write?.tab.tabId : outcome.error.code).toBe('missing_context');
  });
});
