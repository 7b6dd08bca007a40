/** The CSP nonce of the current response, provided by entry.server; empty in the browser. */
import { createContext, useContext } from 'react';

export const NonceContext = createContext('');
export const useNonce = () => useContext(NonceContext);
