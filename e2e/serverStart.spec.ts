/**
 * The built MCP server's first answers: `initialize` and `tools/list` come from the front door
 * (bridge/mcp/stdioFrontDoor.ts) before the MCP SDK is loaded, from facts the build computed. They must
 * be what the SDK's own Server answers — for every protocol version it supports and for one it does
 * not — and the server must go on as the SDK's afterwards.
 */
import { spawn } from 'node:child_process';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { SUPPORTED_PROTOCOL_VERSIONS, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { createMcpServer } from '../bridge/mcp/mcpServer.ts';
import { expect, test } from './fixtures.ts';
import { BIN } from './support/hubProcess.ts';
import { nativeSandbox } from './support/nativeSetup.ts';

const initialize = (protocolVersion: string): JSONRPCMessage => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion, capabilities: { roots: { listChanged: true } }, clientInfo: { name: 'start-test', version: '1' } },
});
const initialized: JSONRPCMessage = { jsonrpc: '2.0', method: 'notifications/initialized' };
const listTools: JSONRPCMessage = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
const ping: JSONRPCMessage = { jsonrpc: '2.0', id: 3, method: 'ping' };

/** The SDK's Server (the one the built server loads later), answering in this process. */
async function sdkAnswers(messages: JSONRPCMessage[]): Promise<JSONRPCMessage[]> {
  const [client, server] = InMemoryTransport.createLinkedPair();
  const mcp = createMcpServer({ call: () => Promise.reject(new Error('no call')) });
  await mcp.connect(server);
  const answers: JSONRPCMessage[] = [];
  client.onmessage = (message) => answers.push(message);
  await client.start();
  for (const message of messages) await client.send(message);
  await expect.poll(() => answers.length).toBe(messages.filter((message) => 'id' in message).length);
  await mcp.close();
  return answers;
}

/** The built server over real stdio. */
async function builtAnswers(messages: JSONRPCMessage[]): Promise<JSONRPCMessage[]> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(nativeSandbox().env)) if (value !== undefined) env[key] = value;
  const child = spawn(process.execPath, [BIN], { stdio: ['pipe', 'pipe', 'ignore'], env });
  const answers: JSONRPCMessage[] = [];
  let text = '';
  child.stdout.on('data', (chunk: Buffer) => {
    text += chunk.toString();
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n')) {
      answers.push(JSON.parse(text.slice(0, end)) as JSONRPCMessage);
      text = text.slice(end + 1);
    }
  });
  try {
    child.stdin.write(messages.map((message) => `${JSON.stringify(message)}\n`).join(''));
    await expect.poll(() => answers.length).toBe(messages.filter((message) => 'id' in message).length);
    return answers;
  } finally {
    child.kill();
  }
}

test('the built server answers initialize and tools/list as the SDK does, for every protocol version, and goes on as the SDK', async () => {
  for (const version of [...SUPPORTED_PROTOCOL_VERSIONS, '2099-01-01']) {
    const messages = [initialize(version), initialized, listTools, ping];
    // JSON-RPC answers may come in any order: compared by id.
    const byId = (answers: JSONRPCMessage[]) => [...answers].sort((a, b) => Number('id' in a ? a.id : 0) - Number('id' in b ? b.id : 0));
    const built = byId(await builtAnswers(messages));
    expect(built, version).toEqual(byId(await sdkAnswers(messages)));
    expect(built[0], version).toMatchObject({ result: { protocolVersion: version === '2099-01-01' ? SUPPORTED_PROTOCOL_VERSIONS[0] : version } });
  }
});
