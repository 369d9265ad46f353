import { describe, expect, it, vi } from 'vitest';
import { getIsToasterWanted, notify, subscribeToasterWanted } from './notify.ts';

describe('notify', () => {
  it('asks for the toast area with the first toast, not before', async () => {
    const onChange = vi.fn();
    const unsubscribe = subscribeToasterWanted(onChange);
    expect(getIsToasterWanted()).toBe(false);
    await notify('success', 'Logged Out');
    expect(getIsToasterWanted()).toBe(true);
    expect(onChange).toHaveBeenCalledTimes(1);
    await notify('error', 'Something went wrong');
    expect(onChange).toHaveBeenCalledTimes(1);
    unsubscribe();
  });
});
