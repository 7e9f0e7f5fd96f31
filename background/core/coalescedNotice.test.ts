import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { coalescedNotice } from './coalescedNotice.ts';

describe('coalescedNotice', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('sends once, after the delay, for changes that come together', () => {
    const send = vi.fn();
    const changed = coalescedNotice(send, 150);
    changed();
    vi.advanceTimersByTime(100);
    changed();
    changed();
    expect(send).not.toHaveBeenCalled();
    vi.advanceTimersByTime(50);
    expect(send).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1000);
    expect(send).toHaveBeenCalledTimes(1);
  });

  it('announces a change that comes after the send with a notice of its own', () => {
    const send = vi.fn();
    const changed = coalescedNotice(send, 150);
    changed();
    vi.advanceTimersByTime(150);
    changed();
    expect(send).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(150);
    expect(send).toHaveBeenCalledTimes(2);
  });
});
