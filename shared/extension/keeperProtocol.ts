/** The keeper document (background/keeper.ts): its port from the worker, and the message that wakes the worker. Kept apart so the keeper's page loads nothing else. */
export const KEEPER_PORT = 'tether.keeper';
export const KEEPER_CHANNEL = 'tether.keeper';
