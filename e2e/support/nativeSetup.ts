/**
 * The native path as a person sets it up, in a sandbox: `tether-mcp install` (the compiled bin)
 * with a home and config folder of the test's own, for a browser profile folder that Chromium is
 * then launched with. The sandbox itself is the testing kit's (testing/native.ts); what is here
 * is what only Tether's own suite needs.
 */
import { expect } from '@playwright/test';
import type { TetherDriver } from './tetherDriver.ts';

export { hostLog, hostPids, hostSockets, installFor, nativeSandbox, tetherMcp, type NativeSandbox } from '../../testing/native.ts';

/** A fresh profile's worker makes its profile id at its first start; until then the UI state says "profile not ready". */
export async function profileMade(tether: TetherDriver): Promise<void> {
  await expect.poll(async () => (await tether.send({ type: 'state.get' })).ok, { timeout: 20_000 }).toBe(true);
}
