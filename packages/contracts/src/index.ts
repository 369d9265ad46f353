export * from './giphy.ts';
export * from './giphy-params.ts';
export * from './events.ts';
export * from './auth.ts';
export * from './api.ts';
export * from './credits.ts';
export * from './analytics.ts';
export * from './favorites.ts';
