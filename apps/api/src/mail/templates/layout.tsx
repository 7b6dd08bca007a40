/**
 * The frame every email of the club shares: black and white like the site, serif heading,
 * generous spacing, one black button, the link printed for clients that block buttons,
 * small print, and the footer. Each email supplies its texts; the plain-text part is
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
import type { Locale } from '@velvet/i18n/locales';
import type { RenderedEmail } from '../intl.ts';
import { styles } from './brand.ts';

export interface EmailTexts {
  subject: string;
  preview: string;
  brand: string;
  greeting: string;
  intro: string;
  /** A line set off before the button (the invitation's code). */
  highlight?: string;
  button: string;
  linkHint: string;
  /** Small print after the link, in order. */
  notes: string[];
  tagline: string;
  reason: string;
}

export interface EmailFrameProps {
  locale: Locale;
  texts: EmailTexts;
  /** Where the button leads. */
  actionUrl: string;
}

function EmailFrame({ locale, texts, actionUrl }: EmailFrameProps) {
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
          {texts.highlight && <Text style={styles.code}>{texts.highlight}</Text>}
          <Section style={styles.buttonSection}>
            <Button href={actionUrl} style={styles.button}>
              {texts.button}
            </Button>
          </Section>
          <Text style={styles.small}>{texts.linkHint}</Text>
          <Text style={styles.small}>
            <Link href={actionUrl} style={styles.link}>
              {actionUrl}
            </Link>
          </Text>
          {texts.notes.map((note) => (
            <Text key={note} style={styles.small}>
              {note}
            </Text>
          ))}
          <Hr style={styles.rule} />
          <Text style={styles.footer}>{texts.tagline}</Text>
          <Text style={styles.footer}>{texts.reason}</Text>
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

/** Subject, HTML and the plain-text part of an email in the club's frame. */
export async function renderEmail(props: EmailFrameProps): Promise<RenderedEmail> {
  const { texts, actionUrl, locale } = props;
  const html = await render(<EmailFrame {...props} />);
  const text = [
    texts.greeting,
    texts.intro,
    ...(texts.highlight ? [texts.highlight] : []),
    `${texts.button}${labelColon(locale)}\n${actionUrl}`,
    ...texts.notes,
    '--',
    `${texts.tagline}\n${texts.reason}`,
  ].join('\n\n');
  return { subject: texts.subject, html, text: `${text}\n` };
}
