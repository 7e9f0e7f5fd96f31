/**
 * The pairing handshake as one step function, for both ends: the extension and a relay run the
 * client side, the hub the server side. Each received frame (parsed JSON, or undefined when it was
 * not JSON) moves the state on and may produce one frame to send; the state ends `paired` (with
 * the session keys, see sealedChannel.ts) or `failed` (with the close code to use). Time is not
 * its business: the caller drops a peer that does not finish in HANDSHAKE_TIMEOUT_MS.
 *
 *   client: awaiting_challenge ──challenge──▶ awaiting_welcome ──welcome──▶ paired
 *   server: awaiting_hello ──hello──▶ paired
 *   any other frame, another version, a proof that does not check: failed
 *
 * No side effects and nothing random inside (nonces come in with the first state); only Web
 * Crypto's HMAC and HKDF, which are asynchronous, so a step is a Promise.
 */
import { BRIDGE_PROTOCOL_VERSION, CLOSE_BAD_HELLO, CLOSE_BAD_TOKEN, challengeSchema, helloSchema, welcomeSchema, type Hello } from './bridgeProtocol.ts';
import { clientProof, freshNonce, sameProof, serverProof, transcriptText, type PeerIdentity, type Transcript } from './pairingProof.ts';
import { deriveSessionKeys, type SessionKeys } from './sealedChannel.ts';

export type PairingFailure =
  /** The server speaks another protocol version (client side). */
  | { reason: 'version_mismatch'; theirs: number | null; closeCode: number }
  /** The server's welcome did not prove it holds the token (client side). */
  | { reason: 'server_unproven'; closeCode: number }
  /** Not the frame this step expects, or not valid (both sides). */
  | { reason: 'unexpected_frame'; closeCode: number }
  /** The hello's proof did not check (server side). */
  | { reason: 'wrong_token'; closeCode: number }
  /** A browser hello from a non-extension, or an agent hello from an extension (server side). */
  | { reason: 'role_mismatch'; closeCode: number };

export type Pairing =
  | { phase: 'awaiting_challenge'; token: string; clientNonce: string; peer: PeerIdentity }
  | { phase: 'awaiting_welcome'; token: string; transcript: Transcript }
  | { phase: 'awaiting_hello'; token: string; serverNonce: string; server: string; peerIsExtension: boolean }
  | { phase: 'paired'; peer: PeerIdentity; server: string; keys: SessionKeys }
  | { phase: 'failed'; failure: PairingFailure };

export type Paired = Extract<Pairing, { phase: 'paired' }>;

export type HandshakeFrame =
  | { type: 'challenge'; nonce: string; version: number }
  | ({ type: 'hello'; nonce: string; proof: string; version: number } & (
      { role: 'browser'; profile: { id: string; label: string } } | { role: 'agent'; agent: string }
    ))
  | { type: 'welcome'; server: string; proof: string };

export interface PairingStep {
  state: Pairing;
  /** What to send now, if anything. */
  send: HandshakeFrame | null;
}

/** A client's first state: it waits for the server's challenge. */
export function clientPairing(token: string, peer: PeerIdentity, clientNonce: string = freshNonce()): PairingStep {
  return { state: { phase: 'awaiting_challenge', token, clientNonce, peer }, send: null };
}

/** The server's first state, and the challenge it sends as soon as a peer connects. */
export function serverPairing(token: string, server: string, peerIsExtension: boolean, serverNonce: string = freshNonce()): PairingStep {
  return {
    state: { phase: 'awaiting_hello', token, serverNonce, server, peerIsExtension },
    send: { type: 'challenge', nonce: serverNonce, version: BRIDGE_PROTOCOL_VERSION },
  };
}

function failed(failure: PairingFailure): PairingStep {
  return { state: { phase: 'failed', failure }, send: null };
}

const unexpected = () => failed({ reason: 'unexpected_frame', closeCode: CLOSE_BAD_HELLO });

/** The version a challenge names, even when the rest of it has another shape (a newer server). */
function challengeVersion(frame: unknown): number | null {
  if (typeof frame !== 'object' || frame === null || (frame as { type?: unknown }).type !== 'challenge') return null;
  const version = (frame as { version?: unknown }).version;
  return typeof version === 'number' ? version : null;
}

function peerOf(hello: Hello): PeerIdentity {
  return hello.role === 'browser' ? { role: 'browser', profile: { id: hello.profile.id, label: hello.profile.label } } : { role: 'agent', agent: hello.agent };
}

export async function stepPairing(state: Pairing, frame: unknown): Promise<PairingStep> {
  switch (state.phase) {
    case 'awaiting_challenge': {
      const version = challengeVersion(frame);
      if (version !== null && version !== BRIDGE_PROTOCOL_VERSION) return failed({ reason: 'version_mismatch', theirs: version, closeCode: CLOSE_BAD_HELLO });
      const challenge = challengeSchema.safeParse(frame);
      if (!challenge.success) return unexpected();
      const transcript: Transcript = { version: BRIDGE_PROTOCOL_VERSION, serverNonce: challenge.data.nonce, clientNonce: state.clientNonce, peer: state.peer };
      const proof = await clientProof(state.token, transcript);
      const who =
        state.peer.role === 'browser' ? { role: 'browser' as const, profile: state.peer.profile } : { role: 'agent' as const, agent: state.peer.agent };
      return {
        state: { phase: 'awaiting_welcome', token: state.token, transcript },
        send: { type: 'hello', nonce: state.clientNonce, proof, version: BRIDGE_PROTOCOL_VERSION, ...who },
      };
    }
    case 'awaiting_welcome': {
      const welcome = welcomeSchema.safeParse(frame);
      if (!welcome.success) return unexpected();
      // Talk only to a server that proved it holds the token, for exactly this handshake.
      const expected = await serverProof(state.token, state.transcript, welcome.data.server);
      if (!sameProof(welcome.data.proof, expected)) return failed({ reason: 'server_unproven', closeCode: CLOSE_BAD_TOKEN });
      const keys = await deriveSessionKeys(state.token, transcriptText(state.transcript, welcome.data.server), 'client');
      return { state: { phase: 'paired', peer: state.transcript.peer, server: welcome.data.server, keys }, send: null };
    }
    case 'awaiting_hello': {
      const hello = helloSchema.safeParse(frame);
      if (!hello.success || hello.data.version !== BRIDGE_PROTOCOL_VERSION) return unexpected();
      const transcript: Transcript = { version: hello.data.version, serverNonce: state.serverNonce, clientNonce: hello.data.nonce, peer: peerOf(hello.data) };
      if (!sameProof(hello.data.proof, await clientProof(state.token, transcript))) return failed({ reason: 'wrong_token', closeCode: CLOSE_BAD_TOKEN });
      // A browser must come from an extension; a relay must be a local program.
      if ((hello.data.role === 'browser') !== state.peerIsExtension) return failed({ reason: 'role_mismatch', closeCode: CLOSE_BAD_HELLO });
      const [proof, keys] = await Promise.all([
        serverProof(state.token, transcript, state.server),
        deriveSessionKeys(state.token, transcriptText(transcript, state.server), 'server'),
      ]);
      return { state: { phase: 'paired', peer: transcript.peer, server: state.server, keys }, send: { type: 'welcome', server: state.server, proof } };
    }
    case 'paired':
    case 'failed':
      // Over: a frame here is not the handshake's to take.
      return unexpected();
  }
}
