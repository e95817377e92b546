// Personality (spec "Smaller resources" → "Personality").
export { AgentIdQuery, PERSONALITY_LIMITS, PERSONALITY_MESSAGES, PersonalityPostBody, RequiredFields, type Personality } from './schemas.ts';
export { createPersonalityStore, type PersonalityStore } from './store.ts';
