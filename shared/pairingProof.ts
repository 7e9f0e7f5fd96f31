/**
 * Pairing without sending the token: each side proves it knows the pairing token by an HMAC over
 * both sides' fresh nonces. A program that took the port before the real bridge learns nothing it
 * could reuse, and a client talks only to a server that proved itself too. Web Crypto, so the
 * same code runs in the service worker and in Node.
 */

export function freshNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

async function hmacHex(token: string, message: string): Promise<string> {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey('raw', encoder.encode(token), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', key, encoder.encode(message)));
  return Array.from(signature, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** What a client (browser profile or relay) sends to prove it holds the token. */
export function clientProof(token: string, serverNonce: string, clientNonce: string, role: string): Promise<string> {
  return hmacHex(token, `tether-client|${role}|${serverNonce}|${clientNonce}`);
}

/** What the server sends back to prove it holds the token too. */
export function serverProof(token: string, serverNonce: string, clientNonce: string): Promise<string> {
  return hmacHex(token, `tether-server|${serverNonce}|${clientNonce}`);
}

/** Compares two proofs without stopping at the first difference. */
export function sameProof(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let difference = 0;
  for (let index = 0; index < a.length; index += 1) difference |= a.charCodeAt(index) ^ b.charCodeAt(index);
  return difference === 0;
}
