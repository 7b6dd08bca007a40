/**
 * The look every email shares (activation, invitation, welcome…): black and white like the site, a
 * serif brand line and heading, generous spacing, one black button, a hairline above the footer.
 */
import type { CSSProperties } from 'react';

const SERIF = "'Playfair Display', Georgia, 'Times New Roman', serif";
const SANS = "'Jost', 'Helvetica Neue', Helvetica, Arial, sans-serif";

export const styles = {
  body: { backgroundColor: '#ffffff', color: '#000000', fontFamily: SANS, margin: 0, padding: '48px 0' },
  container: { maxWidth: '560px', margin: '0 auto', padding: '0 32px' },
  brand: { fontFamily: SERIF, fontSize: '14px', letterSpacing: '0.3em', textTransform: 'uppercase', textAlign: 'center', margin: '0 0 48px' },
  heading: { fontFamily: SERIF, fontSize: '32px', fontWeight: 400, lineHeight: '1.2', margin: '0 0 32px' },
  text: { fontSize: '16px', lineHeight: '1.7', margin: '0 0 24px' },
  buttonSection: { padding: '16px 0 40px', textAlign: 'center' },
  button: {
    backgroundColor: '#000000',
    color: '#ffffff',
    fontSize: '14px',
    letterSpacing: '0.15em',
    textTransform: 'uppercase',
    textDecoration: 'none',
    padding: '18px 40px',
    display: 'inline-block',
  },
  code: {
    fontFamily: SERIF,
    fontSize: '20px',
    letterSpacing: '0.06em',
    textAlign: 'center',
    border: '1px solid #000000',
    padding: '16px',
    margin: '0 0 24px',
  },
  voucher: { border: '1px solid #000000', padding: '28px 24px', margin: '8px 0 32px', textAlign: 'center' },
  eyebrow: { fontSize: '11px', letterSpacing: '0.2em', textTransform: 'uppercase', color: '#555555', margin: '0 0 12px' },
  voucherValue: { fontFamily: SERIF, fontSize: '30px', lineHeight: '1.2', margin: '0 0 8px' },
  voucherCondition: { fontSize: '14px', lineHeight: '1.6', color: '#333333', margin: '0' },
  // The brand's sans, spaced like the site's code: no system monospace (issue 22 row 8).
  voucherCode: { fontSize: '20px', letterSpacing: '0.12em', fontWeight: 500, margin: '0 0 20px', whiteSpace: 'nowrap' },
  voucherRule: { borderColor: '#000000', borderTopWidth: '1px', width: '48px', margin: '20px auto' },
  small: { fontSize: '13px', lineHeight: '1.6', color: '#333333', margin: '0 0 16px' },
  link: { color: '#000000', textDecoration: 'underline', wordBreak: 'break-all' },
  // A link that reads as words (leave the waiting list): wrapped between words, never inside one.
  textLink: { color: '#000000', textDecoration: 'underline', whiteSpace: 'nowrap' },
  rule: { borderColor: '#000000', borderTopWidth: '1px', margin: '40px 0 24px' },
  footer: { fontSize: '12px', lineHeight: '1.6', color: '#555555', margin: '0 0 8px', textAlign: 'center' },
  imprint: { fontSize: '11px', lineHeight: '1.6', color: '#555555', margin: '16px 0 0', textAlign: 'center' },
  footerLink: { color: '#555555', textDecoration: 'underline' },
} satisfies Record<string, CSSProperties>;
