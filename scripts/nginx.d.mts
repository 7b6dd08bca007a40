/** Types of scripts/nginx.mjs for the TypeScript tests that start it. */
export { startNginx } from './engines.mjs';
