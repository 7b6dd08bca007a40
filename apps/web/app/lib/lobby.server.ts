/**
 * The way into the waiting list from the site itself (the landing page's block, the deny
 * page): a short-lived signed lobby token for the address the visitor gave, so the lobby
 * asks for their consent to exactly that address (spec §2 lobby).
 */
import { signLobbyToken } from '@velvet/tokens/signed-token';
import type { RouterContextProvider } from 'react-router';
import { localeContext, requestInfoContext } from './context.ts';
import { localizedPath } from './i18n.ts';

/** Long enough to read the lobby and decide; the shop's own lobby links last longer. */
const SITE_LOBBY_TOKEN_SECONDS = 60 * 60;

export async function lobbyPathFor(email: string, context: Readonly<RouterContextProvider>): Promise<string> {
  const token = await signLobbyToken({ email }, context.get(requestInfoContext).appSecret, SITE_LOBBY_TOKEN_SECONDS);
  return localizedPath(context.get(localeContext).prefix, '/lobby', new URLSearchParams({ token }).toString());
}
