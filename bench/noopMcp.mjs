#!/usr/bin/env node
// The floor of an MCP server's start (bench section 8): answers every request with an empty tool
// list, loads nothing. Packed and installed by bench/connection.ts like Tether's own package.
let text = '';
process.stdin.on('data', (chunk) => {
  text += chunk;
  for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n')) {
    const { id } = JSON.parse(text.slice(0, end));
    text = text.slice(end + 1);
    if (id !== undefined) process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result: { tools: [] } })}\n`);
  }
});
