import { Component } from 'react';
import type { ReactNode } from 'react';

interface ErrorBoundaryProps {
  /** A new value clears a caught error (e.g. the location's key: a new screen tries again). */
  resetKey: unknown;
  fallback: (error: unknown) => ReactNode;
  children: ReactNode;
}

interface ErrorBoundaryState {
  hasError: boolean;
  error: unknown;
  /** The `resetKey` the error was caught under. */
  errorKey: unknown;
}

/** Shows `fallback` instead of a subtree that threw, until `resetKey` changes. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { hasError: false, error: undefined, errorKey: undefined };

  static getDerivedStateFromError(error: unknown): Partial<ErrorBoundaryState> {
    return { hasError: true, error };
  }

  static getDerivedStateFromProps(
    props: ErrorBoundaryProps,
    state: ErrorBoundaryState,
  ): Partial<ErrorBoundaryState> | null {
    // Remembered while all is well, so an error is tied to the key it happened under.
    if (!state.hasError) return { errorKey: props.resetKey };
    if (props.resetKey !== state.errorKey) {
      return { hasError: false, error: undefined, errorKey: props.resetKey };
    }
    return null;
  }

  override render() {
    return this.state.hasError ? this.props.fallback(this.state.error) : this.props.children;
  }
}
