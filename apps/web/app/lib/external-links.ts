/** Where the footer's company and legal links lead: the shop's own pages. */
export const SHOP_ORIGIN = 'https://www.velvetrope.example';

export const EXTERNAL_LINKS = {
  login: `${SHOP_ORIGIN}/login`,
  jobs: `${SHOP_ORIGIN}/jobs`,
  privacy: `${SHOP_ORIGIN}/privacy`,
  terms: `${SHOP_ORIGIN}/terms`,
  imprint: `${SHOP_ORIGIN}/imprint`,
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
