/** Small statistics for the benchmarks: this machine is shared and noisy, so medians and ratios. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] as number;
}

export const median = (values: number[]) => percentile(values, 50);
export const p95 = (values: number[]) => percentile(values, 95);

export function ms(value: number): string {
  return Number.isFinite(value) ? (value < 10 ? value.toFixed(2) : value.toFixed(1)) : '—';
}

export function ratio(a: number, b: number): string {
  return b > 0 ? `${(a / b).toFixed(2)}×` : '—';
}

export async function timed<T>(run: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const value = await run();
  return [performance.now() - started, value];
}
