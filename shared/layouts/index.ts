// Graph layout (spec "Smaller resources" → "Graph layout").
export { DEFAULT_LAYOUT_NAME, GatewayUrlField, LAYOUT_LIMITS, LAYOUT_MESSAGES, LayoutPostBody, layoutKey, type GraphLayout } from './schemas.ts';
export { createLayoutStore, type LayoutStore } from './store.ts';
