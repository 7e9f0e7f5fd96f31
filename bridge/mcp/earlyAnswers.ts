/**
 * The two answers an MCP client waits for before its agent can start — `initialize` and
 * `tools/list` — given without the MCP SDK, so that a starting server answers them before it has
 * loaded the SDK and the zod schemas the SDK builds when imported (most of a start's own time).
 *
 * An early answer must be exactly the SDK's: only requests written the way the SDK's schemas
 * surely accept them are answered here (a subset: anything unusual — `_meta`, icons, an unknown
 * task capability — waits for the SDK), and the answer is built as the SDK's Server builds it.
 * earlyAnswers.test.ts checks both against the SDK itself, with generated requests. Pure.
 */

export interface EarlyFacts {
  /** The SDK's LATEST_PROTOCOL_VERSION and SUPPORTED_PROTOCOL_VERSIONS, as the build read them. */
  protocolVersions: { latest: string; supported: readonly string[] };
  serverInfo: { name: string; version: string };
  capabilities: Record<string, unknown>;
  instructions: string;
  tools: readonly unknown[];
}

export type RequestId = string | number;

export interface EarlyAnswer {
  method: 'initialize' | 'tools/list';
  id: RequestId;
  /** The JSON-RPC response, as the SDK would send it. */
  response: { result: Record<string, unknown>; jsonrpc: '2.0'; id: RequestId };
}

type Json = Record<string, unknown>;

function isPlainObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const absentOr = (value: unknown, check: (present: unknown) => boolean) => value === undefined || check(value);
const isString = (value: unknown) => typeof value === 'string';
const isBoolean = (value: unknown) => typeof value === 'boolean';
const keysWithin = (value: Json, allowed: readonly string[]) => Object.keys(value).every((key) => allowed.includes(key));
const everyValuePlain = (value: unknown) => isPlainObject(value) && Object.values(value).every(isPlainObject);

/** The client capabilities the SDK's ClientCapabilitiesSchema accepts, conservatively (unknown ones it strips). */
function capabilitiesSurelyAccepted(capabilities: unknown): boolean {
  if (!isPlainObject(capabilities)) return false;
  const { roots, sampling, elicitation, experimental, extensions, tasks } = capabilities;
  return (
    absentOr(roots, (value) => isPlainObject(value) && absentOr(value.listChanged, isBoolean)) &&
    absentOr(sampling, (value) => isPlainObject(value) && absentOr(value.context, isPlainObject) && absentOr(value.tools, isPlainObject)) &&
    absentOr(
      elicitation,
      (value) =>
        isPlainObject(value) &&
        absentOr(value.form, (form) => isPlainObject(form) && absentOr(form.applyDefaults, isBoolean)) &&
        absentOr(value.url, isPlainObject),
    ) &&
    absentOr(experimental, everyValuePlain) &&
    absentOr(extensions, everyValuePlain) &&
    absentOr(tasks, (value) => isPlainObject(value) && keysWithin(value, ['list', 'cancel']) && everyValuePlain(value))
  );
}

function initializeSurelyAccepted(params: unknown): params is { protocolVersion: string } {
  if (!isPlainObject(params) || params._meta !== undefined) return false;
  const { protocolVersion, capabilities, clientInfo } = params;
  return (
    typeof protocolVersion === 'string' &&
    capabilitiesSurelyAccepted(capabilities) &&
    isPlainObject(clientInfo) &&
    clientInfo.icons === undefined &&
    isString(clientInfo.name) &&
    isString(clientInfo.version) &&
    ['title', 'websiteUrl', 'description'].every((key) => absentOr(clientInfo[key], isString))
  );
}

/** A JSON-RPC request the SDK's stdio transport takes (its request schema is strict: no other keys). */
function asRequest(message: unknown): { id: RequestId; method: unknown; params: unknown } | null {
  if (!isPlainObject(message) || !keysWithin(message, ['jsonrpc', 'id', 'method', 'params']) || message.jsonrpc !== '2.0') return null;
  const { id } = message;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)))) return null;
  return { id, method: message.method, params: message.params };
}

/**
 * The answer to `message` if it can be given now, or null: then the SDK answers it once loaded.
 * `tools/list` is answered early only after an early `initialize`.
 */
export function earlyAnswer(message: unknown, facts: EarlyFacts, initializeAnswered: boolean): EarlyAnswer | null {
  const request = asRequest(message);
  if (!request) return null;
  const { id, method, params } = request;
  let result: Json;
  if (method === 'initialize' && !initializeAnswered && initializeSurelyAccepted(params)) {
    const requested = params.protocolVersion;
    result = {
      protocolVersion: facts.protocolVersions.supported.includes(requested) ? requested : facts.protocolVersions.latest,
      capabilities: facts.capabilities,
      serverInfo: facts.serverInfo,
      ...(facts.instructions ? { instructions: facts.instructions } : {}),
    };
  } else if (
    method === 'tools/list' &&
    initializeAnswered &&
    absentOr(params, (value) => isPlainObject(value) && value._meta === undefined && absentOr(value.cursor, isString))
  ) {
    result = { tools: facts.tools };
  } else return null;
  return { method, id, response: { result, jsonrpc: '2.0', id } };
}
