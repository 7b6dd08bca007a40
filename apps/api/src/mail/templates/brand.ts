/**
 * The look every email shares (activation, invitation): black and white like the site, a
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
  small: { fontSize: '13px', lineHeight: '1.6', color: '#333333', margin: '0 0 16px' },
  link: { color: '#000000', textDecoration: 'underline', wordBreak: 'break-all' },
  rule: { borderColor: '#000000', borderTopWidth: '1px', margin: '40px 0 24px' },
  footer: { fontSize: '12px', lineHeight: '1.6', color: '#555555', margin: '0 0 8px', textAlign: 'center' },
} satisfies Record<string, CSSProperties>;
