/** React Router's server build, a module its Vite plugin makes (server/index.ts casts it to ServerBuild). */
declare module 'virtual:react-router/server-build';
