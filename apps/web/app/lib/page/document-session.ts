/**
 * The page-load id a document names (ADR 022, 053), from entry.server to the root layout: the
 * id its loaders' API calls used, or null when they made none (the browser then mints one).
 * Absent in the browser, where the layout reads the document. Its own module: page-load.ts is
 * also bundled into the consent script, which has no React.
 */
import { createContext } from 'react';

export const DocumentSessionIdContext = createContext<string | null | undefined>(undefined);
