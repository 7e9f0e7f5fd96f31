/**
 * Cold start: from a stopped service worker to the first answered request. An extension event (a
 * runtime message) wakes the worker at once; the bridge cannot wake it, so through the bridge the
 * first answer waits for the reconnect alarm.
 */
import { median, timed } from './stats.ts';
import type { BenchTether } from './tetherSetup.ts';

export interface ColdStart {
  warmMedian: number;
  coldMedian: number;
  samples: number;
  viaBridgeMs: number;
}

export async function measureColdStart(bench: BenchTether, samples = 10): Promise<ColdStart> {
  const args = { profile: bench.profile, workspace: bench.workspace };
  const warm: number[] = [];
  for (let index = 0; index < 20; index += 1) warm.push((await timed(() => bench.driver.agent('context', args)))[0]);
  const cold: number[] = [];
  for (let index = 0; index < samples; index += 1) {
    await bench.driver.stopServiceWorker();
    const [took, envelope] = await timed(() => bench.driver.agent('context', args));
    if (!envelope.ok) throw new Error(`cold context failed: ${envelope.error.message}`);
    cold.push(took);
  }
  // Through the bridge over the WebSocket fallback: nothing else may wake the worker meanwhile.
  await bench.useWebSocket();
  await bench.driver.stopServiceWorker();
  const started = performance.now();
  for (;;) {
    const { envelope } = await bench.callWs('context', args);
    if (envelope.ok) break;
    if (performance.now() - started > 120_000) throw new Error('the worker never came back to the bridge');
    await new Promise((done) => setTimeout(done, 250));
  }
  return { warmMedian: median(warm), coldMedian: median(cold), samples, viaBridgeMs: performance.now() - started };
}
