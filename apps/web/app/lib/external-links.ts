import { SHOP_LINKS, SHOP_ORIGIN } from '@velvet/validation/shop';

/** Where the footer's company and legal links lead: the shop's own pages (the emails link to the same, @velvet/validation/shop). */
export const EXTERNAL_LINKS = {
  ...SHOP_LINKS,
  jobs: `${SHOP_ORIGIN}/jobs`,
  terms: `${SHOP_ORIGIN}/terms`,
  sustainability: `${SHOP_ORIGIN}/sustainability`,
  customerService: `${SHOP_ORIGIN}/help`,
} as const;

export const SOCIAL_LINKS = [
  { name: 'Instagram', href: 'https://www.instagram.com/velvetrope' },
  { name: 'Facebook', href: 'https://www.facebook.com/velvetrope' },
  { name: 'TikTok', href: 'https://www.tiktok.com/@velvetrope' },
  { name: 'Pinterest', href: 'https://www.pinterest.com/velvetrope' },
  { name: 'YouTube', href: 'https://www.youtube.com/@velvetrope' },
] as const;

export const PAYMENT_METHODS = ['Visa', 'Mastercard', 'American Express', 'PayPal', 'Klarna', 'Apple Pay', 'Google Pay'] as const;
export const DELIVERY_PARTNERS = ['DHL', 'DPD', 'UPS', 'GLS', 'PostNL', 'Hermes'] as const;
