import { expect } from '@playwright/test';
import { E2E } from '../../../playwright.config.ts';

export interface ReceivedMail {
  to: string[];
  subject: string;
  html: string;
  text: string;
  messageId: string;
}

/** A fresh address per test, so parallel tests never read each other's mail. */
export function uniqueEmail(label: string): string {
  return `${label}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Every message the mail peer received for `to` so far (none yet is an empty list). */
export async function receivedMail(to: string): Promise<ReceivedMail[]> {
  const response = await fetch(`http://127.0.0.1:${E2E.mailHttpPort}/messages?to=${encodeURIComponent(to)}`);
  return (await response.json()) as ReceivedMail[];
}

/** Waits (polling the peer, bounded by expect's timeout) until `count` messages reached `to`. */
export async function waitForMail(to: string, count = 1): Promise<ReceivedMail[]> {
  let mail: ReceivedMail[] = [];
  await expect
    .poll(async () => {
      mail = await receivedMail(to);
      return mail.length;
    }, { timeout: 20_000 })
    .toBeGreaterThanOrEqual(count);
  return mail;
}

/** The activation link in an email's HTML part. */
export function activationLink(mail: ReceivedMail): string {
  const match = /href="([^"]*\/registration\/activateaccount\?activationId=[^"]+)"/.exec(mail.html);
  if (!match?.[1]) throw new Error(`No activation link in: ${mail.subject}`);
  return match[1].replace(/&amp;/g, '&');
}

/** The waiting-list lobby link in an email's HTML part (ADR 029). */
export function lobbyLinkIn(mail: ReceivedMail): string {
  const match = /href="([^"]*\/lobby\?token=[^"]+)"/.exec(mail.html);
  if (!match?.[1]) throw new Error(`No lobby link in: ${mail.subject}`);
  return match[1].replace(/&amp;/g, '&');
}

/** The "leave the waiting list" link in the confirmation email's HTML part (ADR 058). */
export function leaveLinkIn(mail: ReceivedMail): string {
  const match = /href="([^"]*\/waitlist\/leave\?ref=[^"]+)"/.exec(mail.html);
  if (!match?.[1]) throw new Error(`No leave link in: ${mail.subject}`);
  return match[1].replace(/&amp;/g, '&');
}

/** What the signed registration-flow cookie holds (readable, only its signature is secret). */
export function flowCookieValue(cookieValue: string): Record<string, unknown> {
  const encoded = decodeURIComponent(cookieValue);
  const payload = encoded.slice(0, encoded.lastIndexOf('.'));
  const session = JSON.parse(decodeURIComponent(escape(Buffer.from(payload, 'base64').toString('binary')))) as { flow?: Record<string, unknown> };
  return session.flow ?? {};
}

/** The invitation link (the landing page with a personal code) in an email's HTML part. */
export function invitationLinkIn(mail: ReceivedMail): string {
  const match = /href="([^"]*\?rc=[^"]+)"/.exec(mail.html);
  if (!match?.[1]) throw new Error(`No invitation link in: ${mail.subject}`);
  return match[1].replace(/&amp;/g, '&');
}
