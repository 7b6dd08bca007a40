/** Types of scripts/nginx.mjs for the TypeScript tests that start it. */
export function startNginx(options: { listen: string; origin: string; stateDir?: string; workers?: number | 'auto'; stdio?: 'inherit' | 'ignore' }): Promise<{ url: string; stop: () => Promise<void> }>;
