import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from './error-boundary.tsx';

function Screen({ shouldFail }: { shouldFail: boolean }) {
  if (shouldFail) throw new Error('Invalid Content Type');
  return <p>screen</p>;
}

function renderBoundary(resetKey: string, shouldFail: boolean) {
  return (
    <ErrorBoundary
      resetKey={resetKey}
      fallback={(error) => <p>failed: {error instanceof Error ? error.message : 'unknown'}</p>}
    >
      <Screen shouldFail={shouldFail} />
    </ErrorBoundary>
  );
}

describe('ErrorBoundary', () => {
  it('shows the fallback with the error instead of a subtree that threw', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    render(renderBoundary('a', true));
    expect(screen.getByText('failed: Invalid Content Type')).toBeInTheDocument();
  });

  it('keeps the fallback while the reset key stays, and tries again when it changes', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const { rerender } = render(renderBoundary('a', true));
    rerender(renderBoundary('a', false));
    expect(screen.getByText('failed: Invalid Content Type')).toBeInTheDocument();
    rerender(renderBoundary('b', false));
    expect(screen.getByText('screen')).toBeInTheDocument();
  });
});
