import { describe, expect, it } from 'vitest';
import {
  ChannelClosed,
  deriveSessionKeys,
  FRAME_OVERHEAD,
  MessageTooLarge,
  SealedChannel,
  sealFrame,
  type ChannelFailure,
  type ChannelLimits,
  type SessionKeys,
} from './sealedChannel.ts';

const TOKEN = 'the-pairing-token-0123456789';
const TRANSCRIPT = '[3,"aa","bb",["browser","p","P"],"tether-mcp"]';

interface End {
  channel: SealedChannel;
  wire: Array<Uint8Array<ArrayBuffer>>;
  got: unknown[];
  failures: ChannelFailure[];
}

function end(keys: SessionKeys, limits: Partial<ChannelLimits> = {}): End {
  const wire: Array<Uint8Array<ArrayBuffer>> = [];
  const got: unknown[] = [];
  const failures: ChannelFailure[] = [];
  const channel = new SealedChannel(
    keys,
    (frame) => wire.push(frame),
    { message: (value) => got.push(value), broken: (failure) => failures.push(failure) },
    limits,
  );
  return { channel, wire, got, failures };
}

async function pair(limits: Partial<ChannelLimits> = { frameBytes: 256 }, token = TOKEN, transcript = TRANSCRIPT): Promise<{ client: End; server: End }> {
  const [clientKeys, serverKeys] = await Promise.all([deriveSessionKeys(token, transcript, 'client'), deriveSessionKeys(token, transcript, 'server')]);
  return { client: end(clientKeys, limits), server: end(serverKeys, limits) };
}

async function deliver(to: End, frames: Uint8Array[]): Promise<void> {
  for (const frame of frames) to.channel.receive(frame);
  await to.channel.drained();
}

describe('the sealed channel', () => {
  it('carries messages both ways, in order, large ones in chunks no frame larger than the limit', async () => {
    const { client, server } = await pair();
    const large = { type: 'request', text: '한국어와 English '.repeat(400) };
    await Promise.all([client.channel.send({ n: 1 }), client.channel.send(large), client.channel.send({ n: 3 })]);
    expect(client.wire.length).toBeGreaterThan(10);
    for (const frame of client.wire) expect(frame.byteLength).toBeLessThanOrEqual(256);
    await deliver(server, client.wire);
    expect(server.got).toEqual([{ n: 1 }, large, { n: 3 }]);
    await server.channel.send({ type: 'response' });
    await deliver(client, server.wire);
    expect(client.got).toEqual([{ type: 'response' }]);
    expect(server.failures).toEqual([]);
  });

  it('what travels is not readable: no plaintext in any frame', async () => {
    const { client } = await pair({ frameBytes: 4096 });
    await client.channel.send({ secret: 'the reference tab’s private text' });
    const onWire = client.wire.map((frame) => Buffer.from(frame).toString('latin1')).join('');
    expect(onWire).not.toContain('private');
    expect(onWire).not.toContain('secret');
  });

  const attacks: Array<[string, (frames: Array<Uint8Array<ArrayBuffer>>) => Uint8Array[]]> = [
    ['a changed byte', ([first, ...rest]) => [Uint8Array.from(first ?? [], (byte, index) => (index === 5 ? byte ^ 1 : byte)), ...rest]],
    ['a replayed frame', ([first, second]) => [first ?? new Uint8Array(), first ?? new Uint8Array(), second ?? new Uint8Array()]],
    ['frames out of order', ([first, second, ...rest]) => [second ?? new Uint8Array(), first ?? new Uint8Array(), ...rest]],
    ['a dropped frame', ([, ...rest]) => rest],
    ['a truncated frame', ([first, ...rest]) => [(first ?? new Uint8Array()).subarray(0, 40), ...rest]],
    ['a frame from outside the session', () => [crypto.getRandomValues(new Uint8Array(100))]],
  ];
  for (const [name, change] of attacks) {
    it(`${name}: the channel breaks ('forged') and delivers nothing more`, async () => {
      const { client, server } = await pair();
      await client.channel.send({ steps: 'x'.repeat(600) });
      await client.channel.send({ after: true });
      await deliver(server, change(client.wire));
      expect(server.failures).toEqual(['forged']);
      expect(server.got).toEqual([]);
      await expect(server.channel.send({ late: true })).rejects.toBeInstanceOf(ChannelClosed);
    });
  }

  it('a frame reflected back to its sender does not open (one key per direction)', async () => {
    const { client } = await pair();
    await client.channel.send({ type: 'request' });
    await deliver(client, client.wire);
    expect(client.failures).toEqual(['forged']);
    expect(client.got).toEqual([]);
  });

  it('frames sealed under another token or another handshake do not open', async () => {
    for (const [token, transcript] of [
      ['another-token-0123456789', TRANSCRIPT],
      [TOKEN, TRANSCRIPT.replace('"aa"', '"ab"')],
    ] as const) {
      const other = await pair({ frameBytes: 256 }, token, transcript);
      await other.client.channel.send({ type: 'request' });
      const victim = end(await deriveSessionKeys(TOKEN, TRANSCRIPT, 'server'));
      await deliver(victim, other.client.wire);
      expect(victim.failures).toEqual(['forged']);
      expect(victim.got).toEqual([]);
    }
  });

  it('oversize: a frame over the limit, a message over the limit to send, a message over the limit to reassemble', async () => {
    const { client, server } = await pair({ frameBytes: 256, messageBytes: 1000 });
    await expect(client.channel.send({ text: 'x'.repeat(1000) })).rejects.toBeInstanceOf(MessageTooLarge);
    expect(client.wire).toEqual([]);
    await deliver(server, [new Uint8Array(257)]);
    expect(server.failures).toEqual(['oversize']);

    const roomy = await pair({ frameBytes: 256, messageBytes: 5000 });
    const strict = end(await deriveSessionKeys(TOKEN, TRANSCRIPT, 'server'), { frameBytes: 256, messageBytes: 1000 });
    await roomy.client.channel.send({ text: 'x'.repeat(2000) });
    await deliver(strict, roomy.client.wire);
    expect(strict.failures).toEqual(['oversize']);
    expect(strict.got).toEqual([]);
  });

  it('malformed: a frame shorter than a sealed chunk; sealed bytes that are not a chunk, not UTF-8 or not JSON', async () => {
    const keys = await deriveSessionKeys(TOKEN, TRANSCRIPT, 'client');
    const sealed = (plain: number[] | string) =>
      sealFrame(keys.seal, keys.sealDirection, 0, typeof plain === 'string' ? new TextEncoder().encode(`\u0000${plain}`) : Uint8Array.from(plain));
    const cases: Array<[string, Uint8Array]> = [
      ['too short', new Uint8Array(FRAME_OVERHEAD - 1)],
      ['an unknown flag', await sealed([7, 123, 125])],
      ['invalid UTF-8', await sealed([0, 0xff, 0xfe])],
      ['not JSON', await sealed('{{{')],
    ];
    for (const [name, frame] of cases) {
      const server = end(await deriveSessionKeys(TOKEN, TRANSCRIPT, 'server'));
      await deliver(server, [frame]);
      expect(server.failures, name).toEqual(['malformed']);
      expect(server.got, name).toEqual([]);
    }
  });

  it('an empty message and values that are not JSON', async () => {
    const { client, server } = await pair();
    await client.channel.send('');
    await deliver(server, client.wire);
    expect(server.got).toEqual(['']);
    await expect(client.channel.send(undefined)).rejects.toBeInstanceOf(TypeError);
  });
});
