// `warren/telemetry`: what a run used and cost — usage arithmetic, the price table and the tree
// of agents with their usage, status and transcripts.

export { addUsage, cacheHitRatio, emptyUsage } from './core/usage.js';
export { loadPriceTable, priceFilePath } from './model/price-file.js';
export { BUILTIN_PRICES, type ModelPrice, type PriceTable, priceOf } from './model/pricing.js';
export { type AgentSummary, AgentTree } from './telemetry/agent-tree.js';
