/**
 * The sealed session's frames (shared/link/sealedChannel.ts) sealed and opened with node:crypto, on the
 * Node sides (the bridge, the hub, a relay, the native host). The same AES-256-GCM frames as Web
 * Crypto makes — same keys (the session's CryptoKeys, used as they are), nonces, additional data
 * and 16-byte tag — so either side may use either; but synchronous: Node's Web Crypto sends every
 * frame through the thread pool and back, a turn or two of the event loop per frame each way.
 */
import { createCipheriv, createDecipheriv, KeyObject } from 'node:crypto';
import { additionalDataFor, nonceFor, type Direction, type FrameCipher } from '../shared/link/sealedChannel.ts';

const TAG_BYTES = 16;
const keyObjects = new WeakMap<CryptoKey, KeyObject>();

/** The session key as node:crypto takes it (the same key; it stays in this process). */
function keyOf(key: CryptoKey): KeyObject {
  let object = keyObjects.get(key);
  if (!object) {
    object = KeyObject.from(key);
    keyObjects.set(key, object);
  }
  return object;
}

function joined(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}

export const nodeFrameCipher: FrameCipher = {
  seal(key: CryptoKey, direction: Direction, counter: number, plain: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> {
    const cipher = createCipheriv('aes-256-gcm', keyOf(key), nonceFor(direction, counter), { authTagLength: TAG_BYTES });
    cipher.setAAD(additionalDataFor(direction));
    const data = cipher.update(plain);
    const last = cipher.final();
    return joined([data, last, cipher.getAuthTag()]);
  },
  open(key: CryptoKey, direction: Direction, counter: number, frame: Uint8Array<ArrayBuffer>): Uint8Array<ArrayBuffer> | null {
    if (frame.byteLength < TAG_BYTES) return null;
    try {
      const decipher = createDecipheriv('aes-256-gcm', keyOf(key), nonceFor(direction, counter), { authTagLength: TAG_BYTES });
      decipher.setAAD(additionalDataFor(direction));
      decipher.setAuthTag(frame.subarray(frame.byteLength - TAG_BYTES));
      const data = decipher.update(frame.subarray(0, frame.byteLength - TAG_BYTES));
      // final() throws when the tag does not match: nothing of a forged frame is returned.
      const last = decipher.final();
      return joined([data, last]);
    } catch {
      return null;
    }
  },
};
