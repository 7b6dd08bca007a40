import { reactRouter } from '@react-router/dev/vite';
import { defineConfig } from 'vite';

// The framework's plugin and nothing else: the weight of a bare React Router page.
export default defineConfig({ plugins: [reactRouter()] });
