import { describe, expect, it } from 'vitest';
import { BRIDGE_PROTOCOL_VERSION, CLOSE_BAD_HELLO, CLOSE_BAD_TOKEN } from './bridgeProtocol.ts';
import { clientPairing, serverPairing, stepPairing, type HandshakeFrame, type Pairing, type PairingStep } from './pairingHandshake.ts';
import { clientProof, freshNonce, type PeerIdentity } from './pairingProof.ts';
import { openFrame, sealFrame } from './sealedChannel.ts';

const TOKEN = 'the-pairing-token-0123456789';
const BROWSER: PeerIdentity = { role: 'browser', profile: { id: 'pr_1', label: 'Home' } };
const AGENT: PeerIdentity = { role: 'agent', agent: 'pid 42' };

/** Sends JSON through JSON, as the wire does. */
const wire = (frame: HandshakeFrame | null): unknown => JSON.parse(JSON.stringify(frame));

async function run(clientToken = TOKEN, peer: PeerIdentity = BROWSER, fromExtension = peer.role === 'browser', serverToken = TOKEN) {
  const server = serverPairing(serverToken, 'tether-mcp test', fromExtension);
  const client = clientPairing(clientToken, peer);
  const afterChallenge = await stepPairing(client.state, wire(server.send));
  const afterHello = await stepPairing(server.state, wire(afterChallenge.send));
  const afterWelcome = afterHello.send ? await stepPairing(afterChallenge.state, wire(afterHello.send)) : null;
  return { server, afterChallenge, afterHello, afterWelcome };
}

function failure(step: PairingStep | null): unknown {
  return step?.state.phase === 'failed' ? step.state.failure : step?.state.phase;
}

describe('the pairing handshake step function', () => {
  it('client and server pair, agree on who is who, and hold matching session keys', async () => {
    for (const peer of [BROWSER, AGENT]) {
      const { server, afterChallenge, afterHello, afterWelcome } = await run(TOKEN, peer);
      expect(server.send).toMatchObject({ type: 'challenge', version: BRIDGE_PROTOCOL_VERSION });
      expect(afterChallenge.state.phase).toBe('awaiting_welcome');
      expect(afterChallenge.send).toMatchObject({ type: 'hello', role: peer.role, version: BRIDGE_PROTOCOL_VERSION });
      // The token is in no frame.
      expect(JSON.stringify([server.send, afterChallenge.send, afterHello.send])).not.toContain(TOKEN);
      const serverSide = afterHello.state;
      const clientSide = afterWelcome?.state;
      if (serverSide.phase !== 'paired' || clientSide?.phase !== 'paired') throw new Error('not paired');
      expect(serverSide.peer).toEqual(peer);
      expect(clientSide.server).toBe('tether-mcp test');
      const plain = new TextEncoder().encode('\u0000{"type":"keepalive"}');
      const sealed = await sealFrame(clientSide.keys.seal, clientSide.keys.sealDirection, 0, plain);
      expect(await openFrame(serverSide.keys.open, serverSide.keys.openDirection, 0, sealed)).toEqual(plain);
    }
  });

  it('the same inputs give the same steps (no hidden randomness or clock)', async () => {
    const nonce = freshNonce();
    const challenge = { type: 'challenge', nonce: freshNonce(), version: BRIDGE_PROTOCOL_VERSION };
    const first = await stepPairing(clientPairing(TOKEN, BROWSER, nonce).state, challenge);
    const second = await stepPairing(clientPairing(TOKEN, BROWSER, nonce).state, challenge);
    expect(first.send).toEqual(second.send);
  });

  const clientCases: Array<[string, unknown, unknown]> = [
    [
      'a challenge of another version',
      { type: 'challenge', nonce: freshNonce(), version: 2 },
      { reason: 'version_mismatch', theirs: 2, closeCode: CLOSE_BAD_HELLO },
    ],
    ['a newer challenge of another shape', { type: 'challenge', version: 9, salt: 1 }, { reason: 'version_mismatch', theirs: 9, closeCode: CLOSE_BAD_HELLO }],
    ['a welcome before any challenge', { type: 'welcome', server: 'x', proof: '0'.repeat(64) }, { reason: 'unexpected_frame', closeCode: CLOSE_BAD_HELLO }],
    ['a request before any challenge', { type: 'request', id: 'x', tool: 'context', args: {} }, { reason: 'unexpected_frame', closeCode: CLOSE_BAD_HELLO }],
    ['not JSON', undefined, { reason: 'unexpected_frame', closeCode: CLOSE_BAD_HELLO }],
    [
      'a challenge with a short nonce',
      { type: 'challenge', nonce: 'abc', version: BRIDGE_PROTOCOL_VERSION },
      { reason: 'unexpected_frame', closeCode: CLOSE_BAD_HELLO },
    ],
  ];
  for (const [name, frame, expected] of clientCases) {
    it(`client, first frame: ${name} → failed`, async () => {
      expect(failure(await stepPairing(clientPairing(TOKEN, BROWSER).state, frame))).toEqual(expected);
    });
  }

  it('client: a welcome that does not prove the token, or proves it for another handshake or server name, fails', async () => {
    const honest = await run();
    const welcome = honest.afterHello.send;
    if (welcome?.type !== 'welcome') throw new Error('no welcome');
    // A server that knows the token, but answered another handshake.
    const other = await run();
    const otherWelcome = other.afterHello.send;
    const unproven = { reason: 'server_unproven', closeCode: CLOSE_BAD_TOKEN };
    for (const forged of [{ ...welcome, proof: '0'.repeat(64) }, { ...welcome, server: 'a renamed server' }, otherWelcome]) {
      expect(failure(await stepPairing(honest.afterChallenge.state, wire(forged as HandshakeFrame)))).toEqual(unproven);
    }
    expect(failure(await stepPairing(honest.afterChallenge.state, { type: 'challenge', nonce: freshNonce(), version: 3 }))).toEqual({
      reason: 'unexpected_frame',
      closeCode: CLOSE_BAD_HELLO,
    });
  });

  it('client: a server that does not hold the token never gets a welcome past the client', async () => {
    const { afterHello } = await run(TOKEN, BROWSER, true, 'the-squatters-guess-0123456');
    expect(failure(afterHello)).toEqual({ reason: 'wrong_token', closeCode: CLOSE_BAD_TOKEN });
  });

  it('server: a wrong token, a role from the wrong origin, another version, a malformed hello', async () => {
    expect(failure((await run('a-wrong-token-0123456789')).afterHello)).toEqual({ reason: 'wrong_token', closeCode: CLOSE_BAD_TOKEN });
    expect(failure((await run(TOKEN, BROWSER, false)).afterHello)).toEqual({ reason: 'role_mismatch', closeCode: CLOSE_BAD_HELLO });
    expect(failure((await run(TOKEN, AGENT, true)).afterHello)).toEqual({ reason: 'role_mismatch', closeCode: CLOSE_BAD_HELLO });
    const server = serverPairing(TOKEN, 'tether-mcp test', true);
    const challenge = wire(server.send) as { nonce: string };
    const nonce = freshNonce();
    const proof = await clientProof(TOKEN, { version: BRIDGE_PROTOCOL_VERSION, serverNonce: challenge.nonce, clientNonce: nonce, peer: BROWSER });
    const hello = {
      type: 'hello',
      role: 'browser',
      nonce,
      proof,
      version: BRIDGE_PROTOCOL_VERSION,
      profile: BROWSER.role === 'browser' ? BROWSER.profile : null,
    };
    const badHello = { reason: 'unexpected_frame', closeCode: CLOSE_BAD_HELLO };
    const cases: Array<[string, unknown, unknown]> = [
      ['another version', { ...hello, version: 2 }, badHello],
      ['no proof', { ...hello, proof: undefined }, badHello],
      ['the token in clear (version 1)', { type: 'hello', role: 'browser', token: TOKEN, version: 1, profile: { id: 'x', label: 'x' } }, badHello],
      ['not JSON', undefined, badHello],
      ['an unknown role', { ...hello, role: 'admin' }, badHello],
      ['a profile changed in transit', { ...hello, profile: { id: 'pr_evil', label: 'Home' } }, { reason: 'wrong_token', closeCode: CLOSE_BAD_TOKEN }],
      ['a label changed in transit', { ...hello, profile: { id: 'pr_1', label: 'Evil' } }, { reason: 'wrong_token', closeCode: CLOSE_BAD_TOKEN }],
      ['the honest hello', hello, 'paired'],
    ];
    for (const [name, frame, expected] of cases) expect(failure(await stepPairing(server.state, frame)), name).toEqual(expected);
  });

  it('a finished handshake takes no more frames', async () => {
    const { afterHello, afterWelcome } = await run();
    for (const state of [
      afterHello.state,
      afterWelcome?.state,
      { phase: 'failed', failure: { reason: 'wrong_token', closeCode: CLOSE_BAD_TOKEN } } satisfies Pairing,
    ]) {
      if (!state) throw new Error('missing state');
      expect(failure(await stepPairing(state, { type: 'hello' }))).toEqual({ reason: 'unexpected_frame', closeCode: CLOSE_BAD_HELLO });
    }
  });
});
