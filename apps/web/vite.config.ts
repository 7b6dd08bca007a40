import { fileURLToPath } from 'node:url';
import { reactRouter } from '@react-router/dev/vite';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type Plugin } from 'vite';
import { compression } from 'vite-plugin-compression2';

/**
 * The browser's chunks (ADR 037): the framework (React, React DOM, React Router) in one chunk,
 * and every module the root route and the entry import statically (every page loads them
 * first anyway) in one more, the "shell", instead of Rolldown's default of a chunk per shared
 * module (27 files on the landing page). Fewer files compress better and take fewer requests
 * before the first paint. Pages, layouts and what they load lazily keep their own chunks.
 */
const FRAMEWORK = /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router|turbo-stream|cookie|set-cookie-parser)[\\/]/;
/**
 * Our own small shared modules (components, hooks, helpers), the codes' customizations (no
 * imports; the landing page and the console share them) and the bundler's helpers; not the form
 * stack (only form pages load Conform, Zod and the forms built on them) nor the other packages,
 * nor the console's pieces (a module here brings its dependencies into the chunk: the console's
 * forms would bring Conform and Zod to every public page).
 */
const COMMON = (id: string) =>
  /[\\/]apps[\\/]web[\\/]app[\\/](components|lib)[\\/]|[\\/]validation[\\/]src[\\/]customization\.ts$|preload-helper|rolldown[:\\/]runtime/.test(id) &&
  !/registration-form|field\.tsx|code-form|client-validation|social-registration|onboarding|welcome|admin|copy-button|funnel-operations|address-form|code-(charts|state|operations)/.test(id);
const SHELL_ROOTS = ['./app/root.tsx', './app/entry.client.tsx'].map((file) => fileURLToPath(new URL(file, import.meta.url)));

interface ChunkingContext {
  getModuleInfo(id: string): { importedIds: readonly string[] } | null;
}

/** The shell: what the root route and the entry import statically, transitively. */
function shellName(): (id: string, ctx: ChunkingContext) => string | null {
  let shell: Set<string> | undefined;
  return (id, ctx) => {
    if (!shell) {
      shell = new Set();
      const queue = [...SHELL_ROOTS];
      while (queue.length > 0) {
        const next = queue.pop() as string;
        if (shell.has(next)) continue;
        shell.add(next);
        queue.push(...(ctx.getModuleInfo(next)?.importedIds ?? []));
      }
    }
    return shell.has(id) && !SHELL_ROOTS.includes(id) ? 'shell' : null;
  };
}

/**
 * The browser gets its messages parsed (ADR 038), so FormatJS's message parser (and its number
 * and date skeleton parser) stays on the server: in the client build the parser package
 * resolves to its own parser-less entry.
 */
const PARSER = '@formatjs/icu-messageformat-parser';
const noMessageParserInBrowser: Plugin = {
  name: 'velvet:no-message-parser-in-browser',
  enforce: 'pre',
  applyToEnvironment: (environment) => environment.name === 'client',
  resolveId(source, importer, options) {
    if (source !== PARSER) return null;
    return this.resolve(`${PARSER}/no-parser.js`, importer, { ...options, skipSelf: true });
  },
};

/**
 * The browser's files, compressed once at build time with Brotli's and gzip's best settings
 * (ADR 069), beside each file (`.br`, `.gz`); the web server sends the one the browser accepts.
 * Compressing on each request, `compression` uses Brotli at quality 4: the landing page's
 * scripts and stylesheet come to 169 kB that way, 146 kB at quality 11.
 */
const precompressed = compression({ include: /^assets\/.+\.(js|css|svg)$/, threshold: 1024, algorithms: ['brotliCompress', 'gzip'], logLevel: 'silent' });

export default defineConfig({
  plugins: [noMessageParserInBrowser, tailwindcss(), reactRouter(), precompressed],
  build: { assetsInlineLimit: 0 },
  environments: {
    // The server build's input is the Express app's entry, as in React Router's node-custom-server
    // template: the server and the routes are one bundle, one module graph (ADR 053).
    ssr: { build: { rollupOptions: { input: './server/index.ts' } } },
    client: {
      build: {
        rolldownOptions: {
          output: {
            codeSplitting: {
              groups: [
                { name: 'framework', test: FRAMEWORK, priority: 20 },
                { name: shellName(), priority: 10 },
                // The small pieces several pages share (header, footer, message screens, hooks): one chunk.
                { name: 'common', test: COMMON, minShareCount: 2, priority: 5 },
              ],
            },
          },
        },
      },
    },
  },
  server: { port: 5173 },
});
