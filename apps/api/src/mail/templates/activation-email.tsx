/**
 * The activation email (spec §2 verify-email, §4): in the member's language, from the
 * catalogs' `email.*` messages. Black and white like the site: serif heading, generous
 * spacing, one black button; the link is also printed for clients that block buttons.
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
import { emailTranslator } from '../intl.ts';
import type { RenderedEmail } from '../intl.ts';
import { styles } from './brand.ts';

export interface ActivationEmailProps {
  locale: Locale;
  firstName: string | null;
  invitorName: string | null;
  activationUrl: string;
  /** When the link stops working. */
  expiresAt: Date;
}

interface ActivationEmailTexts {
  subject: string;
  preview: string;
  brand: string;
  greeting: string;
  intro: string;
  button: string;
  linkHint: string;
  expiry: string;
  notYou: string;
  tagline: string;
  reason: string;
}

export function activationEmailTexts(props: ActivationEmailProps): ActivationEmailTexts {
  const t = emailTranslator(props.locale);
  return {
    subject: t('email.activation.subject'),
    preview: t('email.activation.preview'),
    brand: t('brand.name'),
    greeting: props.firstName ? t('email.activation.greeting', { firstName: props.firstName }) : t('email.activation.greetingAnonymous'),
    intro: props.invitorName
      ? t('email.activation.intro', { invitorName: props.invitorName })
      : t('email.activation.introNoInviter'),
    button: t('email.activation.button'),
    linkHint: t('email.activation.linkHint'),
    expiry: t('email.activation.expiry', { expiresAt: props.expiresAt }),
    notYou: t('email.activation.notYou'),
    tagline: t('email.footer.tagline'),
    reason: t('email.footer.reason'),
  };
}


export function ActivationEmail(props: ActivationEmailProps & { texts: ActivationEmailTexts }) {
  const { texts } = props;
  return (
    <Html lang={props.locale} dir="ltr">
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
          <Section style={styles.buttonSection}>
            <Button href={props.activationUrl} style={styles.button}>
              {texts.button}
            </Button>
          </Section>
          <Text style={styles.small}>{texts.linkHint}</Text>
          <Text style={styles.small}>
            <Link href={props.activationUrl} style={styles.link}>
              {props.activationUrl}
            </Link>
          </Text>
          <Text style={styles.small}>{texts.expiry}</Text>
          <Text style={styles.small}>{texts.notYou}</Text>
          <Hr style={styles.rule} />
          <Text style={styles.footer}>{texts.tagline}</Text>
          <Text style={styles.footer}>{texts.reason}</Text>
        </Container>
      </Body>
    </Html>
  );
}

/** Subject, HTML and a plain-text part written from the same messages (not scraped from the HTML). */
export async function renderActivationEmail(props: ActivationEmailProps): Promise<RenderedEmail> {
  const texts = activationEmailTexts(props);
  const html = await render(<ActivationEmail {...props} texts={texts} />);
  const text = [
    texts.greeting,
    texts.intro,
    `${texts.button}:\n${props.activationUrl}`,
    texts.expiry,
    texts.notYou,
    '--',
    `${texts.tagline}\n${texts.reason}`,
  ].join('\n\n');
  return { subject: texts.subject, html, text: `${text}\n` };
}
