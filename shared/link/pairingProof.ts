/**
 * Pairing without sending the token: each side proves it knows the pairing token by an HMAC over
 * the handshake transcript (protocol version, both sides' fresh nonces, the client's role and
 * identity, and for the server's proof its name too). A program that took the port before the real
 * bridge learns nothing it could reuse, a client talks only to a server that proved itself too, and
 * a program in the middle cannot change what either side said without both proofs failing. Web
 * Crypto, so the same code runs in the service worker and in Node.
 */

export function freshNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** Who the client says it is: a browser profile (the extension) or an agent's bridge process. */
export type PeerIdentity = { role: 'browser'; profile: { id: string; label: string } } | { role: 'agent'; agent: string };

/** What both sides said in the handshake, up to the client's hello. */
export interface Transcript {
  version: number;
  serverNonce: string;
  clientNonce: string;
  peer: PeerIdentity;
}

/** One unambiguous text for the transcript (JSON of a fixed-order array), plus the server's name once known. */
export function transcriptText(transcript: Transcript, server: string | null = null): string {
  const { version, serverNonce, clientNonce, peer } = transcript;
  const who = peer.role === 'browser' ? ['browser', peer.profile.id, peer.profile.label] : ['agent', peer.agent];
  return JSON.stringify([version, serverNonce, clientNonce, who, server]);
}

async function hmacHex(token: string, message: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(token), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
  return Array.from(signature, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** What a client (browser profile or relay) sends to prove it holds the token. */
export function clientProof(token: string, transcript: Transcript): Promise<string> {
  return hmacHex(token, `tether-client|${transcriptText(transcript)}`);
}

/** What the server sends back to prove it holds the token too. */
export function serverProof(token: string, transcript: Transcript, server: string): Promise<string> {
  return hmacHex(token, `tether-server|${transcriptText(transcript, server)}`);
}

/** Compares two proofs without stopping at the first difference. */
export function sameProof(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}
