/**
 * A Blob's bytes as base64, for an image path that sends them on to the worker (SmartEditor ONE's
 * uploader, the block editor's mediaUpload): read with a FileReader as a data: URL, so what comes
 * back is a string.
 *
 * Not `new Uint8Array(await blob.arrayBuffer())`: in a Firefox content script, DOM objects (a Blob
 * the content script makes, a File of the page's window) belong to the page's compartment, and so
 * does the ArrayBuffer they give; a Uint8Array over it is made there too and reaches the content
 * script as an opaque wrapper, whose `subarray` (encodeBase64) throws "Permission denied to access
 * property "constructor"". Seen on firefox-esr 153.8.0 in e2e images.spec's wordpress-block-editor
 * test, 2026-12-01 (every block-editor photo was refused as context_changed); a string crosses
 * compartments as a value.
 */
export function blobBase64(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const url = typeof reader.result === 'string' ? reader.result : '';
      const comma = url.indexOf(',');
      // A data: URL of base64 bytes: "data:<type>;base64,<bytes>" (an empty Blob: "data:" alone in some browsers).
      if (comma < 0) resolve('');
      else if (url.slice(0, comma).endsWith(';base64')) resolve(url.slice(comma + 1));
      else reject(new Error('the bytes could not be read'));
    };
    reader.onerror = () => reject(new Error('the bytes could not be read'));
    reader.readAsDataURL(blob);
  });
}
