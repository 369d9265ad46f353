// Import boundaries of apps/server (docs/architecture.md, "Boundaries"): routes → services → db.
export const serverBoundaries = [];
