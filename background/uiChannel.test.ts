import { beforeEach, describe, expect, it, vi } from 'vitest';

// The channel's edge without a browser: the polyfill and the handlers behind it are stood in for.
vi.mock('webextension-polyfill', () => ({ default: { runtime: { getURL: () => 'chrome-extension://tether/', id: 'tether' } } }));
vi.mock('./uiHandlers.ts', () => ({ handleUiRequest: vi.fn(async () => ({ ok: true, value: 'handled' })) }));
vi.mock('./state/store.ts', () => ({ ready: () => Promise.resolve() }));

const { handleRuntimeMessage } = await import('./uiChannel.ts');
const { fakeUiContext } = await import('./testing/fakeUiContext.ts');
const { handleUiRequest } = await import('./uiHandlers.ts');

const stateGet = { channel: 'tether.runtime', request: { type: 'state.get' } };
const deps = (ready: () => Promise<void>) => ({ ...fakeUiContext(), ready });

describe('a Tether page’s request waits until the worker is ready for it', () => {
  beforeEach(() => vi.mocked(handleUiRequest).mockClear());

  it('is handled only once the profile is made, not as soon as the stored state is loaded', async () => {
    let profileMade = () => {};
    const ready = new Promise<void>((resolve) => (profileMade = resolve));
    const answer = handleRuntimeMessage(
      stateGet,
      deps(() => ready),
    );
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(handleUiRequest).not.toHaveBeenCalled();
    profileMade();
    expect(await answer).toEqual({ ok: true, value: 'handled' });
    expect(handleUiRequest).toHaveBeenCalledTimes(1);
  });

  it('a worker that could not get ready answers with an error value, and handles nothing', async () => {
    const answer = await handleRuntimeMessage(
      stateGet,
      deps(() => Promise.reject(new Error('storage unavailable'))),
    );
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_request', message: 'storage unavailable' } });
    expect(handleUiRequest).not.toHaveBeenCalled();
  });
});
