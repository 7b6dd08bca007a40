/**
 * The frame every email of the club shares: black and white like the site, serif heading,
 * generous spacing, one black button, the link printed for clients that block buttons,
 * small print, and the footer with the company's imprint. Each email supplies its texts; the plain-text part is
 * written from the same texts (not scraped from the HTML).
 */
import { Body } from '@react-email/body';
import { Button } from '@react-email/button';
import { Container } from '@react-email/container';
import { Head } from '@react-email/head';
import { Heading } from '@react-email/heading';
import { Hr } from '@react-email/hr';
import { Html } from '@react-email/html';
import { Link } from '@react-email/link';
import { Preview } from '@react-email/preview';
import { render } from '@react-email/render';
import { Section } from '@react-email/section';
import { Text } from '@react-email/text';
import { AsyncLocalStorage } from 'node:async_hooks';
import { Fragment } from 'react';
import type { Locale } from '@velvet/i18n/locales';
import { COMPANY, SHOP_LINKS } from '@velvet/validation/shop';
import type { Company } from '@velvet/validation/shop';
import { emailTranslator } from '../intl.ts';
import type { RenderedEmail } from '../intl.ts';
import { styles } from './brand.ts';

export interface EmailTexts {
  subject: string;
  preview: string;
  brand: string;
  greeting: string;
  intro: string;
  /** Paragraphs after the intro, in the intro's size (the decline's reason and the way on). */
  paragraphs?: string[];
  /** A line set off before the button (the invitation's code). */
  highlight?: string;
  /** A gift set off in a frame before the button (the welcome voucher). */
  voucher?: EmailVoucher;
  /** The button's label; an email that asks for nothing has none. */
  button?: string;
  /** The line before the printed link, for clients that block buttons; without it no link is printed. */
  linkHint?: string;
  /** Small print after the link, in order. */
  notes: string[];
  /** Quieter ways on after the small print (the status page, leaving the waiting list): each a sentence, then a short link. */
  asides?: { text: string; label: string; url: string }[];
  tagline: string;
  reason: string;
}

/** The welcome voucher as the email frames it: what it is worth, on what terms, and its code. */
interface EmailVoucher {
  title: string;
  value: string;
  conditions: string[];
  codeLabel: string;
  code: string;
}

/** Links of the footer that depend on the recipient, not on the email (ADR 066): set by the outbox for one rendering. */
interface FooterLinks {
  /** "Manage my data" (issue 24 §2): the recipient's data page, for the door's emails to people without an account. */
  manageDataUrl: string | null;
}

const footerLinks = new AsyncLocalStorage<FooterLinks>();

/** Renders the email(s) of `render` with the recipient's footer links. */
export function withFooterLinks<T>(links: FooterLinks, render: () => Promise<T>): Promise<T> {
  return footerLinks.run(links, render);
}

export interface EmailFrameProps {
  locale: Locale;
  /** The company the imprint names (COMPANY_* settings, ADR 060); the placeholder COMPANY without. */
  company?: Company | undefined;
  texts: EmailTexts;
  /** Where the button leads (with `texts.button`). */
  actionUrl?: string;
}

/**
 * The company's imprint (issue 22 row 19): name, address, register and management, as German
 * readers expect at the foot of every email, and the link to the full imprint. One owner for
 * the data (@velvet/validation/shop, replaced entry by entry by the COMPANY_* settings); the
 * country is named in the reader's language.
 */
function imprintLines(locale: Locale, company: Company): string[] {
  const t = emailTranslator(locale);
  const country = new Intl.DisplayNames([locale], { type: 'region' }).of(company.country) ?? company.country;
  return [
    [company.name, company.street, `${company.postalCode}\u00a0${company.city}`, country].join(' · '),
    t('email.footer.register', { register: company.register, directors: company.managingDirectors }),
    t('email.footer.contact', { email: company.email }),
  ];
}

function VoucherFrame({ voucher }: { voucher: EmailVoucher }) {
  return (
    <Section style={styles.voucher}>
      <Text style={styles.eyebrow}>{voucher.title}</Text>
      <Text style={styles.voucherValue}>{voucher.value}</Text>
      {voucher.conditions.map((condition) => (
        <Text key={condition} style={styles.voucherCondition}>
          {condition}
        </Text>
      ))}
      <Hr style={styles.voucherRule} />
      <Text style={styles.eyebrow}>{voucher.codeLabel}</Text>
      <Text style={styles.voucherCode}>{voucher.code}</Text>
    </Section>
  );
}

function EmailFrame({ locale, texts, actionUrl, company, manageDataUrl }: EmailFrameProps & { manageDataUrl: string | null }) {
  const t = emailTranslator(locale);
  return (
    <Html lang={locale} dir="ltr">
      <Head>
        <meta name="color-scheme" content="light" />
        <title>{texts.subject}</title>
      </Head>
      <Preview>{texts.preview}</Preview>
      <Body style={styles.body}>
        <Container style={styles.container}>
          <Text style={styles.brand}>{texts.brand}</Text>
          <Heading as="h1" style={styles.heading}>
            {texts.greeting}
          </Heading>
          <Text style={styles.text}>{texts.intro}</Text>
          {texts.paragraphs?.map((paragraph) => (
            <Text key={paragraph} style={styles.text}>
              {paragraph}
            </Text>
          ))}
          {texts.highlight && <Text style={styles.code}>{texts.highlight}</Text>}
          {texts.voucher && <VoucherFrame voucher={texts.voucher} />}
          {texts.button && actionUrl && (
            <Section style={styles.buttonSection}>
              <Button href={actionUrl} style={styles.button}>
                {texts.button}
              </Button>
            </Section>
          )}
          {texts.linkHint && actionUrl && (
            <>
              <Text style={styles.small}>{texts.linkHint}</Text>
              <Text style={styles.small}>
                <Link href={actionUrl} style={styles.link}>
                  {actionUrl}
                </Link>
              </Text>
            </>
          )}
          {texts.notes.map((note) => (
            <Text key={note} style={styles.small}>
              {note}
            </Text>
          ))}
          {texts.asides?.map((aside) => (
            <Text key={aside.url} style={styles.small}>
              {aside.text}{' '}
              <Link href={aside.url} style={styles.textLink}>
                {aside.label}
              </Link>
            </Text>
          ))}
          <Hr style={styles.rule} />
          <Text style={styles.footer}>{texts.tagline}</Text>
          <Text style={styles.footer}>{texts.reason}</Text>
          <Text style={styles.imprint}>
            {imprintLines(locale, company ?? COMPANY).map((line) => (
              <Fragment key={line}>
                {line}
                <br />
              </Fragment>
            ))}
            <Link href={SHOP_LINKS.imprint} style={styles.footerLink}>
              {t('footer.imprint')}
            </Link>
            {' · '}
            <Link href={SHOP_LINKS.privacy} style={styles.footerLink}>
              {t('footer.privacy')}
            </Link>
            {manageDataUrl && (
              <>
                {' · '}
                <Link href={manageDataUrl} style={styles.footerLink}>
                  {t('email.footer.manageData')}
                </Link>
              </>
            )}
          </Text>
        </Container>
      </Body>
    </Html>
  );
}

/**
 * The colon after the button's label in the plain-text part, as each language sets it: French
 * puts a no-break space before it (the translation reviews of 23 and 27 Nov; docs/i18n/fr.md).
 */
const labelColon = (locale: Locale) => (locale === 'fr' ? '\u00a0:' : ':');

/** The voucher in the plain-text part: the same lines as the frame, the code on its own line. */
const voucherText = (voucher: EmailVoucher, locale: Locale) =>
  [voucher.title, voucher.value, ...voucher.conditions, `${voucher.codeLabel}${labelColon(locale)}\n${voucher.code}`].join('\n');

/** Subject, HTML and the plain-text part of an email in the club's frame. */
export async function renderEmail(props: EmailFrameProps): Promise<RenderedEmail> {
  const { texts, actionUrl, locale } = props;
  const t = emailTranslator(locale);
  const manageDataUrl = footerLinks.getStore()?.manageDataUrl ?? null;
  const html = await render(<EmailFrame {...props} manageDataUrl={manageDataUrl} />);
  const text = [
    texts.greeting,
    texts.intro,
    ...(texts.paragraphs ?? []),
    ...(texts.highlight ? [texts.highlight] : []),
    ...(texts.voucher ? [voucherText(texts.voucher, locale)] : []),
    ...(texts.button && actionUrl ? [`${texts.button}${labelColon(locale)}\n${actionUrl}`] : []),
    ...texts.notes,
    ...(texts.asides ?? []).map((aside) => `${aside.text}\n${aside.url}`),
    '--',
    `${texts.tagline}\n${texts.reason}`,
    [
      ...imprintLines(locale, props.company ?? COMPANY),
      `${t('footer.imprint')}${labelColon(locale)} ${SHOP_LINKS.imprint}`,
      ...(manageDataUrl ? [`${t('email.footer.manageData')}${labelColon(locale)} ${manageDataUrl}`] : []),
    ].join('\n'),
  ].join('\n\n');
  return { subject: texts.subject, html, text: `${text}\n` };
}
