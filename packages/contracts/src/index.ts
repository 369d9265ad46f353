export * from './giphy.ts';
export * from './auth.ts';
export * from './api.ts';
