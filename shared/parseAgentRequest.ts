/**
 * The first two lifecycle checks of every agent request, shared by the bridge (so an agent hears
 * about a malformed or incomplete request even when no browser is connected) and the service
 * worker (which trusts nothing it did not check itself): schema (invalid_request), then context
 * completeness (missing_context, naming exactly the missing fields — R9).
 */
import type { z } from 'zod';
import { failure, success, tetherError, type Outcome } from './errors.ts';
import {
  REQUIRED_CONTEXT,
  TOOL_NAMES,
  TOOL_SCHEMAS,
  describeZodIssues,
  type ActArgs,
  type ContextArgs,
  type InspectArgs,
  type ResolveArgs,
  type ToolName,
} from './protocol.ts';

export type ParsedRequest =
  { tool: 'context'; args: ContextArgs } | { tool: 'resolve'; args: ResolveArgs } | { tool: 'inspect'; args: InspectArgs } | { tool: 'act'; args: ActArgs };

/** A tool name as text for messages and records, whatever was sent (never throws). */
export function toolLabel(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 40) : `(${value === null ? 'null' : typeof value})`;
}

export function isToolName(value: unknown): value is ToolName {
  return typeof value === 'string' && (TOOL_NAMES as readonly string[]).includes(value);
}

function missingFields(tool: ToolName, args: Record<string, unknown>): string[] {
  // An act that only releases its tab needs no plan.
  const release = tool === 'act' && args.release === true;
  return REQUIRED_CONTEXT[tool].filter((field) => args[field] === undefined && !(release && field === 'plan'));
}

function checked<D extends object>(tool: ToolName, parsed: z.ZodSafeParseResult<D>): Outcome<D> {
  if (!parsed.success) {
    return failure(
      tetherError('invalid_request', `The ${tool} arguments do not fit the schema: ${parsed.error.issues[0]?.message ?? 'invalid'}.`, {
        issues: describeZodIssues(parsed.error),
      }),
    );
  }
  const missing = missingFields(tool, parsed.data as Record<string, unknown>);
  if (missing.length > 0) {
    const hint = missing.includes('handle') ? 'Call context for the scope and resolve for a handle.' : 'Call context to find them.';
    return failure(tetherError('missing_context', `Missing ${missing.join(', ')}. ${hint}`, { missing }));
  }
  return success(parsed.data);
}

export function parseAgentRequest(tool: unknown, rawArgs: unknown): Outcome<ParsedRequest> {
  if (!isToolName(tool)) {
    return failure(tetherError('invalid_request', `Unknown tool. Use one of: ${TOOL_NAMES.join(', ')}.`, { tool: toolLabel(tool) }));
  }
  const args = rawArgs ?? {};
  if (typeof args !== 'object' || Array.isArray(args)) {
    return failure(tetherError('invalid_request', 'Arguments must be a JSON object.'));
  }
  switch (tool) {
    case 'context': {
      const result = checked(tool, TOOL_SCHEMAS.context.safeParse(args));
      return result.ok ? success({ tool, args: result.value }) : result;
    }
    case 'resolve': {
      const result = checked(tool, TOOL_SCHEMAS.resolve.safeParse(args));
      return result.ok ? success({ tool, args: result.value }) : result;
    }
    case 'inspect': {
      const result = checked(tool, TOOL_SCHEMAS.inspect.safeParse(args));
      if (!result.ok) return result;
      // Reading on is from a place in a text being read: a name `from` gives must be in `read`.
      const strays = Object.keys(result.value.from ?? {}).filter((name) => !(result.value.read ?? []).includes(name));
      if (strays.length > 0) {
        return failure(
          tetherError('invalid_request', `from names ${strays.join(', ')}, which read does not: name each text in read too.`, { from: strays.slice(0, 20) }),
        );
      }
      return success({ tool, args: result.value });
    }
    case 'act': {
      const result = checked(tool, TOOL_SCHEMAS.act.safeParse(args));
      return result.ok ? success({ tool, args: result.value }) : result;
    }
  }
}
