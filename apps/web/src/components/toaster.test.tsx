import { act, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AppToaster } from './toaster.tsx';

// react-hot-toast hides a dismissed toast, then removes it 1 s later.
const removeDelay = 1000;

function advance(ms: number) {
  act(() => {
    vi.advanceTimersByTime(ms);
  });
}

beforeEach(() => {
  vi.useFakeTimers();
  toast.remove();
});

afterEach(() => {
  act(() => toast.remove());
  vi.useRealTimers();
});

describe('toast area', () => {
  it('sits at the top center', () => {
    render(<AppToaster />);
    act(() => {
      toast('Hello');
    });
    const region = screen.getByText('Hello').closest('[style*="position: fixed"]') as HTMLElement;
    expect(region.style.top).toBe('16px');
    expect(screen.getByText('Hello').closest('[style*="justify-content"]')).toHaveStyle({
      justifyContent: 'center',
    });
  });

  it.each([
    ['success', 2000, (message: string) => toast.success(message)],
    ['error', 4000, (message: string) => toast.error(message)],
    ['blank', 4000, (message: string) => toast(message)],
  ])('shows a %s toast for %i ms', (_type, duration, show) => {
    render(<AppToaster />);
    act(() => {
      show('Note');
    });
    advance(duration - 100);
    expect(screen.getByText('Note')).toBeInTheDocument();
    advance(150);
    // Dismissed on time; React then schedules the removal.
    advance(removeDelay + 50);
    expect(screen.queryByText('Note')).not.toBeInTheDocument();
  });

  it('keeps a loading toast until it is dismissed', () => {
    render(<AppToaster />);
    let id = '';
    act(() => {
      id = toast.loading('Working');
    });
    advance(60_000);
    expect(screen.getByText('Working')).toBeInTheDocument();
    act(() => toast.dismiss(id));
    advance(removeDelay + 50);
    expect(screen.queryByText('Working')).not.toBeInTheDocument();
  });

  it('shows at most 20 toasts at once', () => {
    render(<AppToaster />);
    act(() => {
      for (let index = 0; index < 25; index += 1) toast(`Toast ${index}`);
    });
    expect(screen.getAllByText(/^Toast \d+$/)).toHaveLength(20);
  });
});
