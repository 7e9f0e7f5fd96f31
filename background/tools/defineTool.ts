/**
 * An agent tool is one record: its name, its arguments' schema, the line a model reads in the MCP
 * tool list, the context it needs, and its handler (which returns its result type). The parser
 * (parseAgentRequest.ts), the harness's dispatch, the bridge's tool list (bridge/mcp/mcpTools.ts) and
 * docs/protocol.md's tool reference (toolReference.ts) are all read from the records in
 * registry.ts, so a tool is defined once — the pattern of chrome-devtools-mcp's `defineTool`
 * (src/tools/ToolDefinition.ts), read 2026-12-01.
 *
 * The records load no store and no browser API (the handler gets everything through its
 * ToolContext), so the bridge, a Node program, can read the same records the worker runs.
 */
import type { z } from 'zod';
import { failure, success, tetherError, type Outcome, type TetherError } from '../../shared/errors.ts';
import { describeZodIssues, type ToolName } from '../../shared/agent/agentProtocol.ts';
import { checkHandle } from '../core/checkHandle.ts';
import type { RequestTrace } from '../core/requestTrace.ts';
import { checkScope, type Scope } from '../core/scope.ts';
import type { HandleRecord } from '../state/handles.ts';
import type { ToolContext } from '../toolContext.ts';

/** A context field a request must carry (R9), in the order they are named when missing. */
export type ContextNeed = 'profile' | 'workspace' | 'handle' | 'plan';

export type ToolHandler<A, R> = (args: A, trace: RequestTrace, context: ToolContext) => Promise<Outcome<R>>;

export interface ToolDefinition<N extends ToolName, S extends z.ZodType, R> {
  name: N;
  /** The arguments, checked at the trust boundary by the bridge and again by the worker. */
  args: S;
  /** The MCP tool list's line: a model reads it with every conversation, so it says what the schema cannot, briefly. */
  description: string;
  needs: {
    /** Refused with `missing_context`, naming exactly these when absent. */
    context: readonly ContextNeed[];
    /** Which handle role the tool takes, for the reference (the handler checks it: an act that only releases takes either). */
    role?: 'any' | 'write';
  };
  /** Context a request may leave out given its other arguments (an act that only releases needs no plan). */
  excused?(args: z.infer<S>): readonly ContextNeed[];
  /** A check across arguments the schema cannot say; a problem is an `invalid_request`. */
  refine?(args: z.infer<S>): TetherError | null;
  handler: ToolHandler<z.infer<S>, R>;
}

export interface ToolRecord<N extends ToolName, S extends z.ZodType, R> extends ToolDefinition<N, S, R> {
  /**
   * The first two lifecycle checks, for the bridge (so an agent hears about a malformed or
   * incomplete request even when no browser is connected) and the worker (which trusts nothing it
   * did not check itself): the schema (invalid_request), then the context (missing_context,
   * naming exactly what is missing — R9).
   */
  parse(args: object): Outcome<z.infer<S>>;
}

export function defineTool<N extends ToolName, S extends z.ZodType, R>(definition: ToolDefinition<N, S, R>): ToolRecord<N, S, R> {
  const { name, args: schema, needs, excused, refine } = definition;
  return {
    ...definition,
    parse(args) {
      const parsed = schema.safeParse(args);
      if (!parsed.success) {
        return failure(
          tetherError('invalid_request', `The ${name} arguments do not fit the schema: ${parsed.error.issues[0]?.message ?? 'invalid'}.`, {
            issues: describeZodIssues(parsed.error),
          }),
        );
      }
      const value: z.infer<S> = parsed.data;
      const given = value as Record<string, unknown>;
      const excuses = excused?.(value) ?? [];
      const missing = needs.context.filter((field) => given[field] === undefined && !excuses.includes(field));
      if (missing.length > 0) {
        const hint = missing.includes('handle') ? 'Call context for the scope and resolve for a handle.' : 'Call context to find them.';
        return failure(tetherError('missing_context', `Missing ${missing.join(', ')}. ${hint}`, { missing }));
      }
      const problem = refine?.(value) ?? null;
      return problem ? failure(problem) : success(value);
    },
  };
}

/** What a handle tool may rely on once `withHandle` has passed it: the trusted scope and the live handle. */
export interface HandleScope extends Scope {
  token: string;
  handle: HandleRecord;
  /** The clock when the handle was checked (one reading, used for the whole request). */
  now: number;
}

/**
 * The checks every tool that takes a handle starts with, written once: the scope is the
 * extension's own (unknown_scope), and the handle is live, of this scope (R5, R8).
 */
export function withHandle<A extends { profile?: string; workspace?: string; handle?: string }, R>(
  run: (args: A, scoped: HandleScope, trace: RequestTrace, context: ToolContext) => Promise<Outcome<R>>,
): ToolHandler<A, R> {
  return async (args, trace, context) => {
    const now = context.clock();
    const scope = checkScope(context.local.getState(), args.profile ?? '', args.workspace ?? '');
    if (!scope.ok) return scope;
    const token = args.handle ?? '';
    const handle = checkHandle(await context.handles.get(token), token, { profileId: scope.value.profile.id, workspaceId: scope.value.workspace.id }, now);
    if (!handle.ok) return handle;
    return run(args, { ...scope.value, token, handle: handle.value, now }, trace, context);
  };
}
