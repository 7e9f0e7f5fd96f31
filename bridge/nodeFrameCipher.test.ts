import { describe, expect, it } from 'vitest';
import {
  deriveSessionKeys,
  openFrame,
  SealedChannel,
  sealFrame,
  webCryptoCipher,
  type ChannelFailure,
  type FrameCipher,
  type SessionKeys,
} from '../shared/link/sealedChannel.ts';
import { nodeFrameCipher } from './nodeFrameCipher.ts';

const TOKEN = 'the-pairing-token-0123456789';
const TRANSCRIPT = '[3,"aa","bb",["agent","test"],"tether-host"]';

async function keys(): Promise<{ client: SessionKeys; server: SessionKeys }> {
  const [client, server] = await Promise.all([deriveSessionKeys(TOKEN, TRANSCRIPT, 'client'), deriveSessionKeys(TOKEN, TRANSCRIPT, 'server')]);
  return { client, server };
}

function end(sessionKeys: SessionKeys, cipher: FrameCipher) {
  const wire: Array<Uint8Array<ArrayBuffer>> = [];
  const got: unknown[] = [];
  const failures: ChannelFailure[] = [];
  const channel = new SealedChannel(
    sessionKeys,
    (frame) => wire.push(frame),
    { message: (value) => got.push(value), broken: (failure) => failures.push(failure) },
    { frameBytes: 256, cipher },
  );
  return { channel, wire, got, failures };
}

describe('frames sealed with node:crypto', () => {
  it('are the very frames Web Crypto makes, and open either way', async () => {
    const { client, server } = await keys();
    const plain = new TextEncoder().encode('\u0000{"type":"request","id":"n1"}');
    const byNode = nodeFrameCipher.seal(client.seal, client.sealDirection, 7, plain);
    const byWeb = await sealFrame(client.seal, client.sealDirection, 7, plain);
    expect(byNode).toBeInstanceOf(Uint8Array);
    expect(Array.from(byNode as Uint8Array)).toEqual(Array.from(byWeb));
    expect(await openFrame(server.open, server.openDirection, 7, byNode as Uint8Array<ArrayBuffer>)).toEqual(plain);
    expect(nodeFrameCipher.open(server.open, server.openDirection, 7, byWeb)).toEqual(plain);
  });

  const refusals: Array<
    [string, (frame: Uint8Array<ArrayBuffer>, sessionKeys: { client: SessionKeys; server: SessionKeys }) => Uint8Array<ArrayBuffer> | null]
  > = [
    [
      'a changed byte',
      (frame, { server }) =>
        nodeFrameCipher.open(
          server.open,
          server.openDirection,
          0,
          Uint8Array.from(frame, (byte, index) => (index === 3 ? byte ^ 1 : byte)),
        ) as Uint8Array<ArrayBuffer> | null,
    ],
    [
      'a changed tag',
      (frame, { server }) =>
        nodeFrameCipher.open(
          server.open,
          server.openDirection,
          0,
          Uint8Array.from(frame, (byte, index) => (index === frame.byteLength - 1 ? byte ^ 1 : byte)),
        ) as Uint8Array<ArrayBuffer> | null,
    ],
    [
      'another counter (replayed or reordered)',
      (frame, { server }) => nodeFrameCipher.open(server.open, server.openDirection, 1, frame) as Uint8Array<ArrayBuffer> | null,
    ],
    [
      'reflected back to its sender',
      (frame, { client }) => nodeFrameCipher.open(client.open, client.openDirection, 0, frame) as Uint8Array<ArrayBuffer> | null,
    ],
    ['truncated', (frame, { server }) => nodeFrameCipher.open(server.open, server.openDirection, 0, frame.subarray(0, 10)) as Uint8Array<ArrayBuffer> | null],
    [
      'shorter than a tag',
      (_frame, { server }) => nodeFrameCipher.open(server.open, server.openDirection, 0, new Uint8Array(5)) as Uint8Array<ArrayBuffer> | null,
    ],
  ];
  for (const [name, attempt] of refusals) {
    it(`do not open when ${name}`, async () => {
      const sessionKeys = await keys();
      const frame = nodeFrameCipher.seal(
        sessionKeys.client.seal,
        sessionKeys.client.sealDirection,
        0,
        new TextEncoder().encode('\u0000{"secret":1}'),
      ) as Uint8Array<ArrayBuffer>;
      expect(attempt(frame, sessionKeys)).toBeNull();
    });
  }

  it('carry a session between a node:crypto side and a Web Crypto side, large messages in chunks, in order', async () => {
    const { client: clientKeys, server: serverKeys } = await keys();
    const client = end(clientKeys, nodeFrameCipher);
    const server = end(serverKeys, webCryptoCipher);
    const large = { text: '한국어와 English '.repeat(300) };
    await Promise.all([client.channel.send({ n: 1 }), client.channel.send(large), client.channel.send({ n: 3 })]);
    expect(client.wire.length).toBeGreaterThan(10);
    for (const frame of client.wire) server.channel.receive(frame);
    await server.channel.drained();
    expect(server.got).toEqual([{ n: 1 }, large, { n: 3 }]);
    await server.channel.send({ type: 'response', large });
    for (const frame of server.wire) client.channel.receive(frame);
    await client.channel.drained();
    expect(client.got).toEqual([{ type: 'response', large }]);
    expect([...client.failures, ...server.failures]).toEqual([]);
  });

  it('break a node:crypto session on a forged frame and deliver nothing after it', async () => {
    const { client: clientKeys, server: serverKeys } = await keys();
    const client = end(clientKeys, nodeFrameCipher);
    const server = end(serverKeys, nodeFrameCipher);
    await client.channel.send({ n: 1 });
    await client.channel.send({ n: 2 });
    const [first, second] = client.wire;
    server.channel.receive(Uint8Array.from(first ?? [], (byte, index) => (index === 2 ? byte ^ 1 : byte)));
    server.channel.receive(second ?? new Uint8Array());
    await server.channel.drained();
    expect(server.failures).toEqual(['forged']);
    expect(server.got).toEqual([]);
  });
});
