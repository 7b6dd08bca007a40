/**
 * The invitation email (waiting list and membership interest): a personal access code and
 * the button to the landing page with it, in the recipient's language, from the catalogs'
 * `email.invitation.*` messages. The same look as the activation email (./brand.ts).
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

/** Why the recipient is invited: they joined the waiting list, or applied for membership. */
export type InvitationReason = 'waitlist' | 'interest';

export interface InvitationEmailProps {
  locale: Locale;
  /** The personal registration code. */
  code: string;
  /** The landing page with the code (?rc=). */
  invitationUrl: string;
  /** When the code stops working. */
  expiresAt: Date;
  reason: InvitationReason;
}

interface InvitationEmailTexts {
  subject: string;
  preview: string;
  brand: string;
  greeting: string;
  intro: string;
  button: string;
  code: string;
  linkHint: string;
  expiry: string;
  tagline: string;
  reason: string;
}

export function invitationEmailTexts(props: InvitationEmailProps): InvitationEmailTexts {
  const t = emailTranslator(props.locale);
  return {
    subject: t('email.invitation.subject'),
    preview: t('email.invitation.preview'),
    brand: t('brand.name'),
    greeting: t('email.invitation.greeting'),
    intro: t('email.invitation.intro'),
    button: t('email.invitation.button'),
    code: t('email.invitation.code', { code: props.code }),
    // The activation email's "copy this address" line says exactly what is needed here too.
    linkHint: t('email.activation.linkHint'),
    expiry: t('email.invitation.expiry', { expiresAt: props.expiresAt }),
    tagline: t('email.footer.tagline'),
    reason: t(props.reason === 'waitlist' ? 'email.invitation.reasonWaitlist' : 'email.invitation.reasonInterest'),
  };
}

export function InvitationEmail(props: InvitationEmailProps & { texts: InvitationEmailTexts }) {
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
          <Text style={styles.code}>{texts.code}</Text>
          <Section style={styles.buttonSection}>
            <Button href={props.invitationUrl} style={styles.button}>
              {texts.button}
            </Button>
          </Section>
          <Text style={styles.small}>{texts.linkHint}</Text>
          <Text style={styles.small}>
            <Link href={props.invitationUrl} style={styles.link}>
              {props.invitationUrl}
            </Link>
          </Text>
          <Text style={styles.small}>{texts.expiry}</Text>
          <Hr style={styles.rule} />
          <Text style={styles.footer}>{texts.tagline}</Text>
          <Text style={styles.footer}>{texts.reason}</Text>
        </Container>
      </Body>
    </Html>
  );
}

/** Subject, HTML and a plain-text part written from the same messages (not scraped from the HTML). */
export async function renderInvitationEmail(props: InvitationEmailProps): Promise<RenderedEmail> {
  const texts = invitationEmailTexts(props);
  const html = await render(<InvitationEmail {...props} texts={texts} />);
  const text = [
    texts.greeting,
    texts.intro,
    texts.code,
    `${texts.button}:\n${props.invitationUrl}`,
    texts.expiry,
    '--',
    `${texts.tagline}\n${texts.reason}`,
  ].join('\n\n');
  return { subject: texts.subject, html, text: `${text}\n` };
}
