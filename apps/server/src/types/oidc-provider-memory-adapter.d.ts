// oidc-provider's own in-memory store, which its types do not declare; only what
// auth/local-issuer.ts uses is declared.
declare module 'oidc-provider/lib/adapters/memory_adapter.js' {
  import type { AdapterFactory } from 'oidc-provider';
  export function createMemoryAdapter(clockTolerance?: number): AdapterFactory;
}
