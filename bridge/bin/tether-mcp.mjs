#!/usr/bin/env node
// Runs the TypeScript bridge directly (through tsx), so `npx tether-mcp` works right after `npm ci`.
import { register } from 'tsx/esm/api';

register();
await import('../main.ts');
