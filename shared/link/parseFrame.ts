/** A WebSocket frame as JSON, or undefined when it is not JSON: the other end is another program. */
export function parseFrame(data: unknown): unknown {
  try {
    return JSON.parse(String(data));
  } catch {
    return undefined;
  }
}
