/** Random ids from the platform's CSPRNG (available in workers, pages and Node). */
function randomBase64Url(bytes: number): string {
  const buffer = new Uint8Array(bytes);
  crypto.getRandomValues(buffer);
  let binary = '';
  for (const byte of buffer) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** An id with a readable prefix: `ws_…` for a workspace, `th_…` for a target handle. */
export function newId(prefix: string, bytes = 12): string {
  return `${prefix}_${randomBase64Url(bytes)}`;
}
