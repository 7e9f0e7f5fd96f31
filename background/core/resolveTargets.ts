/**
 * The current-target resolver (R1–R5, R7's busy check), a pure function over plain data.
 *
 * It decides which tab a request means to write and which tabs it only reads, from the trusted
 * scope and tab metadata alone. It never opens a tab, never reads a page body, and never falls back
 * to "whatever tab is active" when the request named something else.
 */
import { failure, success, tetherError, type Outcome, type TetherError } from '../../shared/errors.ts';
import type { ChoiceRule } from '../../shared/model/explain.ts';
import { siteMatcher } from '../../shared/model/matchSite.ts';
import { revalidateBinding } from './revalidateBinding.ts';
import { browserWrittenOrigin, indexTabs, selectCandidates, type TabIndex } from './tabIndex.ts';
import {
  originOf,
  urlWithoutFragment,
  type Program,
  type Role,
  type TabMeta,
  type TargetBinding,
  type TargetSpec,
  type Workspace,
} from '../../shared/model/targetModel.ts';

export interface ResolveRequest {
  destination?: TargetSpec;
  references: TargetSpec[];
  /** Only reading: no write target is resolved. */
  readOnly: boolean;
}

export interface ResolveInput {
  profileId: string;
  /** The trusted scope, from the extension's own state, never from the request. */
  workspace: Workspace;
  /** Metadata of the tabs in the workspace, as the browser reports them now. */
  tabs: TabMeta[];
  request: ResolveRequest;
  /** The workspace's active tab when the request arrived, if any. */
  requestTimeTabId: number | null;
  /** The program this request continues, if it continues one. */
  program: Program | null;
  /** Programs in this workspace, to keep one task from taking over another's tab (R7). */
  programs: Program[];
  /** Tabs with an act running now (R7). */
  busyTabIds: number[];
  /** Bindings of the handles the request names; a handle absent here is unknown. */
  handleBindings: Record<string, TargetBinding>;
}

export interface ResolvedTarget {
  tab: TabMeta;
  origin: string;
  role: Role;
  rule: ChoiceRule;
  /** What the request said that led here, for the explanation ("cafe", a URL, a handle). */
  namedAs: string | null;
}

export interface Resolution {
  write: ResolvedTarget | null;
  references: ResolvedTarget[];
}

function describeSpec(spec: TargetSpec): string {
  if (spec.handle !== undefined) return `handle ${spec.handle.slice(0, 10)}…`;
  if (spec.tabId !== undefined) return `tab ${spec.tabId}`;
  const named = spec.url ?? spec.site ?? '';
  return spec.title !== undefined ? `${named} titled "${spec.title}"` : named;
}

function candidateList(tabs: readonly TabMeta[]): Array<{ tabId: number; title: string; url: string }> {
  return tabs.map((tab) => ({ tabId: tab.tabId, title: tab.title, url: tab.url }));
}

function titleMatches(spec: TargetSpec, tab: TabMeta): boolean {
  if (spec.title === undefined) return true;
  return tab.title.toLowerCase().includes(spec.title.trim().toLowerCase());
}

/** What the resolver works from: the request's input, and its tabs indexed once (see tabIndex.ts). */
interface Indexed extends ResolveInput {
  /**
   * The tabs a request may name are the members showing a site the workspace has, the one the
   * workspace last saw them on. A member that went to another site — one outside the workspace,
   * or another of its own — is none, even before the worker has seen it navigate (it leaves the
   * workspace then): a page can neither widen a workspace nor carry a reference tab onto a
   * writable site and have it named or taken as the request-time tab.
   */
  index: TabIndex;
}

/** The candidates a spec names (handles aside), in tab order. */
export function matchBySpec(spec: TargetSpec, index: TabIndex): TabMeta[] {
  if (spec.tabId !== undefined) {
    const tab = index.isCandidate(spec.tabId) ? index.byId(spec.tabId) : undefined;
    return tab && titleMatches(spec, tab) ? [tab] : [];
  }
  // A whole origin's tabs match alike, unless a title narrows them.
  const all = spec.title === undefined ? true : null;
  if (spec.url !== undefined) {
    const wanted = urlWithoutFragment(spec.url);
    // A tab's address equal to `wanted` has the origin `wanted` has.
    const wantedOrigin = browserWrittenOrigin(wanted);
    const exact = selectCandidates(
      index,
      (origin) => (origin === wantedOrigin ? null : false),
      (tab) => urlWithoutFragment(tab.url) === wanted && titleMatches(spec, tab),
    );
    if (exact.length > 0) return exact;
    return selectCandidates(
      index,
      (origin) => (wanted.length <= origin.length ? (origin.startsWith(wanted) ? all : false) : wanted.startsWith(origin) ? null : false),
      (tab) => tab.url.startsWith(wanted) && titleMatches(spec, tab),
    );
  }
  if (spec.site !== undefined) {
    const matches = siteMatcher(spec.site);
    return selectCandidates(
      index,
      (origin) => (matches(origin) ? all : false),
      (tab) => matches(tab.url) && titleMatches(spec, tab),
    );
  }
  if (spec.title !== undefined) return index.candidates.filter((tab) => titleMatches(spec, tab));
  return [];
}

/** R3: a named target resolves to the unique existing tab that matches it, or stops. */
function findNamedTab(spec: TargetSpec, role: Role, input: Indexed): Outcome<ResolvedTarget> {
  if (spec.handle !== undefined) {
    const binding = input.handleBindings[spec.handle];
    if (!binding) {
      return failure(tetherError('invalid_handle', 'This handle is unknown or expired. Call resolve again to get a new one.'));
    }
    if (binding.profileId !== input.profileId || binding.workspaceId !== input.workspace.id) {
      return failure(tetherError('invalid_handle', 'This handle belongs to another profile or workspace. Use a handle resolved in this scope.'));
    }
    const still = revalidateBinding(binding, {
      profileId: input.profileId,
      workspace: input.workspace,
      tab: input.index.byId(binding.tabId) ?? null,
    });
    if (!still.ok) return still;
    const tab = still.value;
    const origin = binding.origin;
    return success({ tab, origin, role, rule: 'explicit_handle', namedAs: null });
  }

  const tabs = input.index.candidates;
  const matches = matchBySpec(spec, input.index);
  const named = describeSpec(spec);
  if (matches.length === 0) {
    return failure(
      tetherError(
        'target_not_found',
        `No open tab in workspace "${input.workspace.name}" matches ${named}. Open it in the workspace or name another tab; Tether does not open tabs itself.`,
        { role, named, tabs: candidateList(tabs) },
      ),
    );
  }
  if (matches.length > 1) {
    return failure(
      tetherError('ambiguous_target', `${matches.length} tabs match ${named}. Choose one by url, title or tabId.`, {
        role,
        named,
        candidates: candidateList(matches),
      }),
    );
  }
  const tab = matches[0] as TabMeta;
  const origin = originOf(tab.url);
  if (!origin) return failure(tetherError('target_not_found', `The tab matching ${named} is not a web page.`));
  return success({ tab, origin, role, rule: 'named_in_request', namedAs: named });
}

function specNamesSomething(spec: TargetSpec | undefined): spec is TargetSpec {
  return (
    spec !== undefined &&
    (spec.handle !== undefined || spec.tabId !== undefined || spec.url !== undefined || spec.site !== undefined || spec.title !== undefined)
  );
}

/** R2: explicit handle > named in this request > the continued program's target > request-time tab. */
function resolveWriteTarget(input: Indexed): Outcome<ResolvedTarget> {
  const { destination } = input.request;
  if (specNamesSomething(destination)) return findNamedTab(destination, 'write', input);

  if (input.program) {
    const target = input.program.target;
    // The program's target is gone or changed: refuse, never substitute another tab (R8).
    const still = revalidateBinding(target, {
      profileId: input.profileId,
      workspace: input.workspace,
      tab: input.index.byId(target.tabId) ?? null,
    });
    if (!still.ok) {
      return failure({ ...still.error, details: { ...still.error.details, program: input.program.id } });
    }
    return success({ tab: still.value, origin: target.origin, role: 'write', rule: 'program_target', namedAs: null });
  }

  if (input.requestTimeTabId !== null) {
    const tab = input.index.isCandidate(input.requestTimeTabId) ? input.index.byId(input.requestTimeTabId) : undefined;
    const origin = tab ? originOf(tab.url) : null;
    if (tab && origin) return success({ tab, origin, role: 'write', rule: 'request_time_tab', namedAs: null });
  }

  return failure(
    tetherError('missing_context', 'Name a destination (site, url, tabId or handle): no tab of this workspace was active when the request arrived.', {
      missing: ['destination'],
    }),
  );
}

/** R5: the write target must be a site the workspace allows writing. */
function checkWritable(target: ResolvedTarget, workspace: Workspace): TetherError | null {
  if (workspace.sites[target.origin]?.writable === true) return null;
  return tetherError(
    'read_only_target',
    `Workspace "${workspace.name}" does not allow writing on ${target.origin}. Ask the person to allow it, or only read it.`,
    { origin: target.origin, tabId: target.tab.tabId },
  );
}

/** R7: another task's target, or a tab with an act running now, is busy. */
function checkNotBusy(target: ResolvedTarget, input: ResolveInput): TetherError | null {
  const other = input.programs.find((program) => program.target.tabId === target.tab.tabId && program.id !== input.program?.id);
  if (other) {
    return tetherError('target_busy', `Program "${other.label}" already writes to this tab. Continue that program, or wait until it ends.`, {
      program: other.id,
      status: other.status,
      tabId: target.tab.tabId,
    });
  }
  if (input.busyTabIds.includes(target.tab.tabId)) {
    return tetherError('target_busy', 'An action is running on this tab now. Try again when it has finished.', {
      tabId: target.tab.tabId,
    });
  }
  return null;
}

export function resolveTargets(request: ResolveInput): Outcome<Resolution> {
  const input: Indexed = { ...request, index: indexTabs(request.workspace, request.tabs) };
  const references: ResolvedTarget[] = [];
  for (const [index, spec] of input.request.references.entries()) {
    if (!specNamesSomething(spec)) {
      return failure(tetherError('invalid_request', 'Each reference must name a site, url, title, tabId or handle.'));
    }
    const found = findNamedTab(spec, 'reference', input);
    // Which reference was ambiguous: the agent (or the person asked) settles that one.
    if (!found.ok && found.error.code === 'ambiguous_target') return failure({ ...found.error, details: { ...found.error.details, reference: index } });
    if (!found.ok) return found;
    // The same tab named twice as a reference is one reference.
    if (!references.some((existing) => existing.tab.tabId === found.value.tab.tabId)) references.push(found.value);
  }

  if (input.request.readOnly) {
    if (references.length === 0) {
      return failure(tetherError('missing_context', 'A read-only request must name at least one reference.', { missing: ['references'] }));
    }
    return success({ write: null, references });
  }

  const write = resolveWriteTarget(input);
  if (!write.ok) return write;

  // R4: one tab cannot be both read and written in one request.
  const clash = references.find((reference) => reference.tab.tabId === write.value.tab.tabId);
  if (clash) {
    return failure(
      tetherError('role_conflict', 'The same tab was asked for as both the write target and a reference. Name two different tabs.', {
        tabId: clash.tab.tabId,
        title: clash.tab.title,
        url: clash.tab.url,
      }),
    );
  }

  const notWritable = checkWritable(write.value, input.workspace);
  if (notWritable) return failure(notWritable);
  const busy = checkNotBusy(write.value, input);
  if (busy) return failure(busy);

  return success({ write: write.value, references });
}
