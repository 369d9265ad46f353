// Import boundaries of apps/web (docs/architecture.md, "Boundaries"): app → features → shared.
// Filled in by the web boundaries rules; an empty list keeps eslint.config.js stable meanwhile.
export const webBoundaries = [];
