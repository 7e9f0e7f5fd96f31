/** The build id Vite compiles into the worker (see vite.config.ts). */
declare const __TETHER_BUILD__: string;
